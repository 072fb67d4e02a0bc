/** Limits of wait nodes, free of zod: workflow code reads them (workflows/runs/waitNode.ts), as validation does. */

/** The longest a wait node waits: a year and a day. */
export const MAX_WAIT_MS = 366 * 24 * 3600 * 1000;
