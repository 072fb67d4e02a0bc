/**
 * What a wait_for_event node receives (zod-free: workflow code reads it). The dispatcher signals a waiting run with
 * EVENT_ARRIVED_SIGNAL and `{ nodeId, event }`; the event is the envelope webhooks and event-started runs get.
 */
export const EVENT_ARRIVED_SIGNAL = 'loomEventArrived';

export interface WaitedEvent {
  id: string;
  type: string;
  /** ISO 8601 */
  timestamp: string;
  data: Record<string, unknown>;
}

export interface EventArrived {
  nodeId: string;
  event: WaitedEvent;
}
