import type { ProcessDeps } from '../domain/deps';

/** What activities may touch. Built once per worker process (worker/main.ts). */
export type ActivityDeps = ProcessDeps;
