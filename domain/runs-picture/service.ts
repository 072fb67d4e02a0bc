import type { Db } from '../../db/knex';
import type { NodeDef } from '../../lib/dag/model';
import { notFound } from '../../lib/errors';
import type { LayoutEdge } from '../../lib/dag-layout/layout';
import { renderRunSvg, type PictureNode } from '../../lib/picture/runSvg';
import type { RunsService } from '../runs/service';
import { loadWorkflowVersion } from '../workflows/queries';

export interface RunPicture {
  svg: string;
  status: string;
  temporalUrl: string | null;
}

function toolOf(node: NodeDef): string | undefined {
  const config = node.config as { tool?: unknown; template?: { config?: { tool?: unknown } } };
  const tool = node.type === 'loop' ? config.template?.config?.tool : config.tool;
  return typeof tool === 'string' ? tool : undefined;
}

/** Drawn edges: the declared ones plus those a condition or parallel node implies (it starts those nodes). */
export function pictureEdges(nodes: NodeDef[], edges: LayoutEdge[]): LayoutEdge[] {
  const out = [...edges];
  for (const node of nodes) {
    const config = node.config as { trueBranch?: string; falseBranch?: string; branches?: { nodes?: string[] }[] };
    if (node.type === 'condition') {
      for (const target of [config.trueBranch, config.falseBranch]) if (target) out.push({ from: node.id, to: target });
    }
    if (node.type === 'parallel') {
      for (const branch of config.branches ?? []) for (const member of branch.nodes ?? []) out.push({ from: node.id, to: member });
    }
  }
  return out;
}

export function createRunPictureService(db: Db, runs: RunsService) {
  return {
    /** 404 for an unknown run or one of another organization (the runs service decides). */
    async render(organizationId: string, workflowId: string, runId: string): Promise<RunPicture> {
      const run = await runs.get(organizationId, workflowId, runId);
      const loaded = await loadWorkflowVersion(db, organizationId, workflowId, run.workflow_version);
      if (!loaded) throw notFound('workflow version');
      const { dag, name } = loaded.compiled;
      const nodes: PictureNode[] = dag.nodes.map((n) => ({ id: n.id, type: n.type, tool: toolOf(n) }));
      const svg = renderRunSvg({
        title: `${name} (v${run.workflow_version})`,
        run: { id: run.id, status: run.status, duration: run.duration },
        nodes,
        edges: pictureEdges(dag.nodes, dag.edges),
        states: run.node_states,
        now: new Date(),
      });
      return { svg, status: run.status, temporalUrl: run.links.temporal };
    },
  };
}

export type RunPictureService = ReturnType<typeof createRunPictureService>;
