import { layoutDag, type LayoutEdge } from '../dag-layout/layout';

/**
 * The picture of a run: its DAG laid out left to right, each node coloured by its state and labelled with its
 * tool, attempts and duration. Pure string building; every text is XML-escaped. Nodes carry `data-node-id` and
 * `data-status` so tools (and the browser test) can read the picture.
 */

export interface PictureNode {
  id: string;
  type: string;
  /** The tool of a tool node (or of a loop's template). */
  tool?: string;
}

export interface PictureNodeState {
  status: string;
  attempts: number;
  startedAt: string | null;
  finishedAt: string | null;
  error?: { code: string; message: string } | null;
}

export interface RunPictureInput {
  title: string;
  run: { id: string; status: string; duration: number | null };
  nodes: PictureNode[];
  edges: LayoutEdge[];
  states: Record<string, PictureNodeState | undefined>;
  /** For durations of nodes still running. */
  now: Date;
}

export const STATUS_COLOURS: Record<string, { fill: string; stroke: string; text: string }> = {
  pending: { fill: '#f3f4f6', stroke: '#9ca3af', text: '#374151' },
  running: { fill: '#dbeafe', stroke: '#2563eb', text: '#1e3a8a' },
  completed: { fill: '#dcfce7', stroke: '#16a34a', text: '#14532d' },
  failed: { fill: '#fee2e2', stroke: '#dc2626', text: '#7f1d1d' },
  skipped: { fill: '#ffffff', stroke: '#d1d5db', text: '#6b7280' },
  cancelled: { fill: '#ffedd5', stroke: '#ea580c', text: '#7c2d12' },
};

const HEADER_HEIGHT = 44;

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function nodeDuration(state: PictureNodeState | undefined, now: Date): number | null {
  if (!state?.startedAt) return null;
  const end = state.finishedAt ? Date.parse(state.finishedAt) : now.getTime();
  const ms = end - Date.parse(state.startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function renderRunSvg(input: RunPictureInput): string {
  const layout = layoutDag(
    input.nodes.map((n) => n.id),
    input.edges,
  );
  const width = Math.max(layout.width, 420);
  const height = layout.height + HEADER_HEIGHT;
  const byId = new Map(input.nodes.map((n) => [n.id, n]));
  const runColour = STATUS_COLOURS[input.run.status] ?? STATUS_COLOURS.pending!;
  const runDuration = input.run.duration === null ? '' : ` · ${formatDuration(input.run.duration)}`;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" data-run-id="${escapeXml(input.run.id)}" ` +
      `data-run-status="${escapeXml(input.run.status)}" role="img" aria-label="${escapeXml(`run ${input.run.status}`)}">`,
  );
  out.push(`<title>${escapeXml(`${input.title} — run ${input.run.status}`)}</title>`);
  out.push(
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
      `<path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker></defs>`,
  );
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(
    `<g class="run-header"><text x="24" y="28" font-size="16" font-weight="600" fill="#111827">${escapeXml(clip(input.title, 80))}</text>` +
      `<text x="${width - 24}" y="28" font-size="14" text-anchor="end" fill="${runColour.stroke}" class="run-status">` +
      `${escapeXml(input.run.status)}${escapeXml(runDuration)}</text></g>`,
  );
  out.push(`<g transform="translate(0,${HEADER_HEIGHT})">`);
  for (const edge of layout.edges) {
    const skipped = input.states[edge.to]?.status === 'skipped';
    out.push(
      `<path class="edge" data-from="${escapeXml(edge.from)}" data-to="${escapeXml(edge.to)}" d="${edge.path}" fill="none" ` +
        `stroke="#9ca3af" stroke-width="1.5"${skipped ? ' stroke-dasharray="4 4"' : ''} marker-end="url(#arrow)"/>`,
    );
  }
  for (const placed of layout.nodes) {
    const node = byId.get(placed.id)!;
    const state = input.states[placed.id];
    const status = state?.status ?? 'pending';
    const colour = STATUS_COLOURS[status] ?? STATUS_COLOURS.pending!;
    const duration = nodeDuration(state, input.now);
    const kind = node.tool ? `${node.type} · ${node.tool}` : node.type;
    const facts = [status, state && state.attempts > 1 ? `${state.attempts} attempts` : state?.attempts === 1 ? '1 attempt' : null, duration === null ? null : formatDuration(duration)]
      .filter(Boolean)
      .join(' · ');
    const tooltip = [placed.id, kind, facts, state?.error ? `${state.error.code}: ${state.error.message}` : null].filter(Boolean).join('\n');
    out.push(
      `<g class="node" data-node-id="${escapeXml(placed.id)}" data-status="${escapeXml(status)}" data-attempts="${state?.attempts ?? 0}" ` +
        `transform="translate(${placed.x},${placed.y})"><title>${escapeXml(tooltip)}</title>` +
        `<rect width="${placed.width}" height="${placed.height}" rx="10" fill="${colour.fill}" stroke="${colour.stroke}" ` +
        `stroke-width="${status === 'running' ? 3 : 1.5}"${status === 'skipped' ? ' stroke-dasharray="5 4"' : ''}/>` +
        `<text x="12" y="22" font-size="14" font-weight="600" fill="${colour.text}">${escapeXml(clip(placed.id, 28))}</text>` +
        `<text x="12" y="42" font-size="12" fill="#4b5563">${escapeXml(clip(kind, 34))}</text>` +
        `<text x="12" y="60" font-size="12" fill="${colour.text}" class="facts">${escapeXml(clip(facts, 36))}</text></g>`,
    );
  }
  out.push('</g></svg>');
  return out.join('\n');
}
