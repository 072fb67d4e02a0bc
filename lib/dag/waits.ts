/** Limits of wait nodes, free of zod: workflow code reads them (workflows/runs/waitNode.ts), as validation does. */

/** The longest a wait node waits: a year and a day. */
export const MAX_WAIT_MS = 366 * 24 * 3600 * 1000;

/** The furthest back a wait_for_event node looks for events published before it started. */
export const MAX_EVENT_LOOKBACK_MS = 7 * 24 * 3600 * 1000;

/** A wait_for_event node's `event` in its match expression: the name it is bound to. */
export const EVENT_LOCAL = 'event';
