import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { runPictureRoutes } from './routes';

/** Run pictures: the DAG of a run drawn as SVG, and a page that keeps it fresh while the run is live. */
export function createRunPictureDomain(services: Services): Domain {
  return { routes: runPictureRoutes(services.runPicture) };
}
