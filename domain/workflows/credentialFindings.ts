import { scanDefinitionCredentials } from '../../lib/dag/inlineCredentials';
import type { StoredDefinition } from '../../lib/dag/model';
import type { Problem } from '../../lib/dag/problems';
import { definitionSecretReferences, type SecretReference } from '../../lib/dag/secretReferences';

/**
 * What a valid definition holds of credentials: literal ones (refused at save, 422 INLINE_CREDENTIAL) and its
 * `{{secret.NAME}}` references (each must name a secret of the organization, 422 UNKNOWN_SECRET). Pure: the
 * validation thread computes it for large definitions, the service on the loop for the others.
 */
export interface CredentialFindings {
  inline: Problem[];
  references: SecretReference[];
}

export function credentialFindings(definition: StoredDefinition, dagPath: string): CredentialFindings {
  return { inline: scanDefinitionCredentials(definition, dagPath).problems, references: definitionSecretReferences(definition, dagPath) };
}
