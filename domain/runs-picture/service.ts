import { createHash } from 'node:crypto';
import { parseNodeConfig } from '../../lib/dag/nodeConfig';
import { specOf } from '../../lib/dag/nodeTypes';
import type { Db } from '../../db/knex';
import type { NodeDef } from '../../lib/dag/model';
import { notFound } from '../../lib/errors';
import type { LayoutEdge } from '../../lib/dag-layout/layout';
import { loopProgress, nodeDetails, type NodeStateLike, parallelBranches, toolOf, waitingOf } from '../../lib/picture/details';
import { renderRunSvg, type PictureNode } from '../../lib/picture/runSvg';
import type { RunsService } from '../runs/service';
import type { RunView } from '../runs/schemas';
import { loadWorkflowVersion } from '../workflows/queries';
import type { RunPictureModel } from './schemas';

export interface RunPicture {
  svg: string;
  status: string;
  temporalUrl: string | null;
}

/** Changes whenever what the picture draws could change, so cached pictures of older formats are not reused. */
const PICTURE_FORMAT = 2;

/** The picture page of a run (same origin as the API). */
export function picturePath(workflowId: string, runId: string): string {
  return `/ui/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(runId)}/picture`;
}

/**
 * Drawn edges: the declared ones plus those a condition, switch or parallel node implies (it starts those nodes). A
 * branch member that waits for another member of its branch is reached through it, so it gets no edge of its own.
 */
export function pictureEdges(nodes: NodeDef[], edges: LayoutEdge[]): LayoutEdge[] {
  const out = [...edges];
  for (const node of nodes) {
    const config = node.config as { branches?: { nodes?: string[] }[] };
    const typed = parseNodeConfig(node, '');
    const targets = typed.ok ? (specOf(typed.value.type).branchTargets?.(typed.value.config) ?? []) : [];
    for (const target of new Set(targets)) if (target) out.push({ from: node.id, to: target });
    if (node.type === 'parallel') {
      for (const branch of config.branches ?? []) {
        const members = new Set(branch.nodes ?? []);
        for (const member of members) {
          if (!edges.some((e) => e.to === member && members.has(e.from))) out.push({ from: node.id, to: member });
        }
      }
    }
  }
  return out;
}

/**
 * A weak validator of what the picture shows: the run's state without the parts that change on every read
 * (`duration` while open, presigned `download_url`s). The page polls with If-None-Match and gets 304 until a node
 * moves on; durations of running nodes count on in the page itself.
 */
export function pictureEtag(run: RunView): string {
  const state = JSON.stringify(
    [PICTURE_FORMAT, run.id, run.workflow_version, run.status, run.started_at, run.completed_at, run.parent, run.node_states, run.errors],
    (key, value: unknown) => (key === 'download_url' ? undefined : value),
  );
  return `W/"${createHash('sha256').update(state).digest('base64url').slice(0, 27)}"`;
}

/** True when an If-None-Match header names `etag` (or is `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

export function createRunPictureService(db: Db, runs: RunsService) {
  async function load(organizationId: string, workflowId: string, runId: string) {
    const run = await runs.get(organizationId, workflowId, runId);
    const loaded = await loadWorkflowVersion(db, organizationId, workflowId, run.workflow_version);
    if (!loaded) throw notFound('workflow version');
    return { run, compiled: loaded.compiled };
  }

  function draw(run: RunView, dag: { nodes: NodeDef[]; edges: LayoutEdge[] }, name: string, now: Date): { title: string; svg: string } {
    const states = run.node_states as Record<string, NodeStateLike | undefined>;
    const nodes: PictureNode[] = dag.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      tool: toolOf(n),
      ...(n.type === 'loop' ? { loop: loopProgress(n, states[n.id], run.parameters, states) } : {}),
      ...waitingOf(n, states[n.id]),
    }));
    const title = `${name} (v${run.workflow_version})`;
    const svg = renderRunSvg({
      title,
      run: { id: run.id, status: run.status, duration: run.duration, startedAt: run.started_at },
      nodes,
      edges: pictureEdges(dag.nodes, dag.edges),
      groups: parallelBranches(dag.nodes),
      states: run.node_states,
      now,
    });
    return { title, svg };
  }

  return {
    /** 404 for an unknown run or one of another organization (the runs service decides). */
    async render(organizationId: string, workflowId: string, runId: string): Promise<RunPicture> {
      const { run, compiled } = await load(organizationId, workflowId, runId);
      const { svg } = draw(run, compiled.dag, compiled.name, new Date());
      return { svg, status: run.status, temporalUrl: run.links.temporal };
    },

    /**
     * The picture with what its side panel shows per node. With the ETag of the picture a client already has,
     * answers `{ notModified: true }` without drawing it again.
     */
    async model(
      organizationId: string,
      workflowId: string,
      runId: string,
      ifNoneMatch?: string,
    ): Promise<{ etag: string; status: string; notModified: true } | { etag: string; status: string; notModified: false; model: RunPictureModel }> {
      const { run, compiled } = await load(organizationId, workflowId, runId);
      const etag = pictureEtag(run);
      if (etagMatches(ifNoneMatch, etag)) return { etag, status: run.status, notModified: true };
      const now = new Date();
      const { title, svg } = draw(run, compiled.dag, compiled.name, now);
      const model: RunPictureModel = {
        run: {
          id: run.id,
          workflow_id: run.workflow_id,
          workflow_version: run.workflow_version,
          status: run.status,
          started_at: run.started_at,
          completed_at: run.completed_at,
          duration: run.duration,
          temporal: run.links.temporal ?? null,
          parent: run.parent ? { ...run.parent, picture: picturePath(run.parent.workflow_id, run.parent.run_id) } : null,
        },
        title,
        svg,
        nodes: nodeDetails({
          nodes: compiled.dag.nodes,
          parameters: run.parameters,
          states: run.node_states as Record<string, NodeStateLike | undefined>,
          picturePath,
        }),
        now: now.toISOString(),
      };
      return { etag, status: run.status, notModified: false, model };
    },
  };
}

export type RunPictureService = ReturnType<typeof createRunPictureService>;
