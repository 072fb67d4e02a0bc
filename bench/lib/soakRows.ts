/**
 * The rows of the soak scenario (bench/scenarios/soak.ts). Kept apart from EXPECTED_ROWS (bench/lib/results.ts),
 * which lists what a default full run produces: a full run leaves the 30-minute soak out unless asked (`--soak` or
 * `--only soak`), while a smoke run includes its 2-minute version, so the smoke test expects both lists.
 */
export const SOAK_ROWS = [
  'soak_rate',
  'soak_errors',
  'soak_runs_lost_dup',
  'soak_rss_slope',
  'soak_minio_heap',
  'soak_pg_growth_per_1000_runs',
  'soak_temporal_growth_per_1000_runs',
] as const;

export type SoakRowId = (typeof SOAK_ROWS)[number];
