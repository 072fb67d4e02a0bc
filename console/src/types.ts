import type { components } from '../../client/generated/schema';
import type { NodeDetails } from '../../lib/picture/details';

/** The API's shapes the console reads: the generated client's types where the OpenAPI document names them. */
type Schemas = components['schemas'];
export type RunSummary = Schemas['RunSummary'];
export type Run = Schemas['Run'];
export type NodeState = Schemas['NodeState'];
export type Approval = Schemas['Approval'];
export type Workflow = Schemas['Workflow'];
export type WorkflowVersion = Schemas['WorkflowVersion'];
export type TriggerView = Schemas['TriggerView'];
export type RunStats = Schemas['RunStats'];

export type Role = 'owner' | 'admin' | 'member' | 'viewer';

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface Organization {
  id: string;
  name: string;
  slug: string;
  role?: Role;
}

export interface User {
  id: string;
  email: string;
  name: string | null;
}

export interface TwoFactorChallenge {
  twoFactorRequired: true;
  challengeToken: string;
  expiresIn: number;
  methods: string[];
}

export interface DeadLetter {
  id: string;
  workflow_id: string;
  workflow_version: number;
  run_id: string;
  node_id: string;
  queue: string;
  tool: string | null;
  input: unknown;
  error: unknown;
  attempts: number;
  status: 'pending' | 'replayed';
  replay_run_id: string | null;
  replayed_at: string | null;
  expires_at: string;
  created_at: string;
}

export type PictureNode = NodeDetails;

export interface PictureModel {
  title: string;
  svg: string;
  nodes: Record<string, PictureNode>;
  now: string;
}
