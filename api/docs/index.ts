import type { Domain } from '../domain';
import { docsRoutes } from './routes';

export function createDocsDomain(): Domain {
  return { routes: docsRoutes() };
}
