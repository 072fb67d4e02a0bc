/**
 * The organization deletion workflow's model (workflows/organizations.ts), shared with the API that reads its
 * progress (domain/organizations/lifecycleService.ts) and the activity that writes the export.
 */

export interface OrganizationExport {
  /** Presigned GET of the archive, valid until `expiresAt`. */
  url: string;
  expiresAt: string;
  key: string;
  bytes: number;
  sha256: string;
  entries: number;
  contentFiles: number;
  missingFiles: number;
}

export interface DeletionProgress {
  requestedBy: string;
  /** The step running; `done` at the end, `aborted` when the export failed and nothing was deleted. */
  step: string;
  stepsDone: string[];
  exportUrl: string | null;
  /** The archive's facts once written (executions before EXPORT_ARCHIVE_PATCH have none). */
  export?: Omit<OrganizationExport, 'url'> | null;
}
