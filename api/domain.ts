import type { RouteDef } from './http/route';

/** What each api/<domain>/index.ts hands the app: its route declarations. */
export interface Domain {
  routes: RouteDef[];
}
