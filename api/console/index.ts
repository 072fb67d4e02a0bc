import type { Domain } from '../domain';
import { consoleRoutes } from './routes';

export function createConsoleDomain(): Domain {
  return { routes: consoleRoutes() };
}
