/**
 * One row of the report. `ratio` is ours / baseline (both measured in the same run on the same machine); absolute
 * rows (no baseline exists) have a null baseline and ratio and are judged on `ours` against the goal alone.
 */
export interface Row {
  id: string;
  path: string;
  baseline: { label: string; value: number | null; unit: string };
  ours: { value: number; unit: string };
  ratio: number | null;
  goal: string;
  met: boolean | null;
  notes?: string;
  details?: Record<string, unknown>;
}

/** Every row a complete run produces, in report order (the smoke test checks them all). */
export const EXPECTED_ROWS = [
  'auth_me',
  'jwt_verify',
  'login',
  'login_reads_p99',
  'login_fair',
  'run_1node_throughput',
  'run_1node_p50',
  'run_1node_cpu',
  'run_1node_cpu_fair',
  'run_10node_step',
  'run_10node_p50_step',
  'ceiling_1_worker',
  'ceiling_2_workers',
  'ceiling_4_workers',
  'runs_list_first',
  'runs_list_deep',
  'runs_list_param',
  'runs_list_id',
  'runs_stats_30d',
  'upload_throughput',
  'upload_rss',
  'search_p95',
  'search_recall',
  'search_ndcg',
  'search_synonyms',
  'embed_throughput',
  'embed_memory',
  'loop_items',
  'dag_nodes',
  'run_cancel_p50',
  'run_cancel_p99',
  'run_wait_p50',
  'run_wait_p99',
  'resume_p50',
  'resume_p99',
  'waiting_memory',
  'waiting_storage',
  'fair_xml_upload',
  'fair_text_upload',
  'fair_xml_parse',
  'fair_jsonata',
  'flow_rr_lag',
  'flow_throttle',
  'flow_key_overhead',
  'cluster_run_1node_throughput',
  'cluster_run_1node_cpu',
  'cluster_run_10node_throughput',
  'cluster_run_10node_cpu',
  'cluster_ceiling_1_worker',
  'cluster_ceiling_2_workers',
  'cluster_ceiling_4_workers',
] as const;

export type RowId = (typeof EXPECTED_ROWS)[number];

export function ratioOf(ours: number, baseline: number): number {
  return baseline === 0 ? Number.NaN : ours / baseline;
}

export interface RunLatencyChart {
  label: string;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
}

export interface ProfileSummary {
  process: string;
  samplesMs: number;
  top: { name: string; where: string; selfMs: number; share: number }[];
  /** The same samples grouped by package (node_modules) or by our own file. */
  topModules: { module: string; selfMs: number; share: number }[];
}

export interface BenchResult {
  mode: 'full' | 'smoke';
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  machine: { cpus: number; model: string; memoryGb: number; node: string; loadAverageAtStart: number[] };
  rows: Row[];
  errors: { scenario: string; message: string }[];
  runLatency: RunLatencyChart[];
  profiles: ProfileSummary[];
}
