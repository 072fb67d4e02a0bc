import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { createRunExecutions } from '../../domain/runs/executions';
import { createRunsService } from '../../domain/runs/service';
import { runPictureRoutes } from './routes';
import { createRunPictureService } from '../../domain/runs-picture/service';

/** Run pictures: the DAG of a run drawn as SVG, and a page that keeps it fresh while the run is live. */
export function createRunPictureDomain(deps: AppDeps): Domain {
  // The runs service is stateless: its own instance reads runs exactly as GET .../runs/{run_id} does.
  const runs = createRunsService(deps, createRunExecutions(deps.temporal, deps.config.temporal));
  return { routes: runPictureRoutes(createRunPictureService(deps.db, runs)) };
}
