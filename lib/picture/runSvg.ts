import { layoutDag, type LayoutEdge } from '../dag-layout/layout';
import type { ParallelBranch } from './details';

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
  /** Loop nodes: how far the loop got (lib/picture/details.ts#loopProgress). */
  loop?: { total: number | null; done: number | null; failedItems: number[]; text: string };
  /** Wait nodes while they wait: until when (lib/picture/details.ts#waitingOf). */
  waiting?: { until: string; text: string };
}

export interface PictureNodeState {
  status: string;
  attempts: number;
  startedAt: string | null;
  finishedAt: string | null;
  error?: { code: string; message: string } | null;
  child_run_id?: string;
}

export interface RunPictureInput {
  title: string;
  run: { id: string; status: string; duration: number | null; startedAt?: string | null };
  nodes: PictureNode[];
  edges: LayoutEdge[];
  states: Record<string, PictureNodeState | undefined>;
  /** Branches of parallel nodes: each is drawn as a box around its member nodes. */
  groups?: ParallelBranch[];
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
const NODE_WIDTH = 230;
const NODE_HEIGHT = 96;
/** Characters of a 12px line that fit a node (about 6.4 px each, 12 px of padding each side). */
const LINE_CHARS = 34;
const LINE_Y = [20, 38, 55, 71, 85];
const GROUP_PAD = { x: 10, top: 20, bottom: 8 };
/** Node texts stop at the node's right edge, however wide their letters are. */
const CLIP = ' clip-path="url(#node-clip)"';

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

/** Word-wrapped lines of at most `width` characters; the last allowed line ends with … when text is left over. */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  // Words longer than a line are cut into pieces of a line each.
  const pieces = text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((word) => Array.from({ length: Math.ceil(word.length / width) }, (_, i) => word.slice(i * width, (i + 1) * width)));
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    const next = line ? `${line} ${piece}` : piece;
    if (next.length <= width) line = next;
    else {
      lines.push(line);
      line = piece;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1]!;
  kept[maxLines - 1] = last.length >= width ? `${last.slice(0, width - 1)}…` : `${last}…`;
  return kept;
}

const attr = (name: string, value: string | number | null | undefined): string =>
  value === null || value === undefined ? '' : ` ${name}="${escapeXml(String(value))}"`;

/**
 * Layout-only edges so that what follows a parallel node is drawn right of its branches (it waits for the
 * parallel node, which waits for them).
 */
function rankEdges(edges: LayoutEdge[], groups: ParallelBranch[]): LayoutEdge[] {
  const members = new Map<string, string[]>();
  for (const g of groups) members.set(g.parallel, [...(members.get(g.parallel) ?? []), ...g.nodes]);
  const out: LayoutEdge[] = [];
  for (const e of edges) {
    const inside = members.get(e.from);
    if (!inside || inside.includes(e.to)) continue;
    for (const m of inside) if (m !== e.to) out.push({ from: m, to: e.to });
  }
  return out;
}

export function renderRunSvg(input: RunPictureInput): string {
  const groups = input.groups ?? [];
  const layout = layoutDag(
    input.nodes.map((n) => n.id),
    input.edges,
    { nodeWidth: NODE_WIDTH, nodeHeight: NODE_HEIGHT, rowGap: 36, groups: groups.map((g) => g.nodes), rankEdges: rankEdges(input.edges, groups) },
  );
  const width = Math.max(layout.width, 420);
  const height = layout.height + HEADER_HEIGHT;
  const byId = new Map(input.nodes.map((n) => [n.id, n]));
  const placedById = new Map(layout.nodes.map((n) => [n.id, n]));
  const runColour = STATUS_COLOURS[input.run.status] ?? STATUS_COLOURS.pending!;
  const runDuration = input.run.duration === null ? '' : ` · ${formatDuration(input.run.duration)}`;
  const runLive = input.run.status === 'running' && input.run.startedAt;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" data-run-id="${escapeXml(input.run.id)}" ` +
      `data-run-status="${escapeXml(input.run.status)}" role="group" aria-label="${escapeXml(`${input.title}: run ${input.run.status}`)}">`,
  );
  out.push(`<title>${escapeXml(`${input.title} — run ${input.run.status}`)}</title>`);
  out.push(
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
      `<path d="M0,0 L10,5 L0,10 z" fill="#6b7280"/></marker>` +
      // Texts that run long stop at the node's edge.
      `<clipPath id="node-clip"><rect width="${NODE_WIDTH - 6}" height="${NODE_HEIGHT}"/></clipPath></defs>`,
  );
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(
    `<g class="run-header"><text x="24" y="28" font-size="16" font-weight="600" fill="#111827">${escapeXml(clip(input.title, 80))}</text>` +
      `<text x="${width - 24}" y="28" font-size="14" text-anchor="end" fill="${runColour.stroke}" class="run-status"` +
      `${runLive ? `${attr('data-since', input.run.startedAt)}${attr('data-prefix', `${input.run.status} · `)}` : ''}>` +
      `${escapeXml(input.run.status)}${escapeXml(runDuration)}</text></g>`,
  );
  out.push(`<g transform="translate(0,${HEADER_HEIGHT})">`);
  // Branches of parallel nodes, behind everything else.
  for (const group of groups) {
    const boxes = group.nodes.map((id) => placedById.get(id)).filter((b) => b !== undefined);
    if (!boxes.length) continue;
    const x1 = Math.min(...boxes.map((b) => b.x)) - GROUP_PAD.x;
    const y1 = Math.min(...boxes.map((b) => b.y)) - GROUP_PAD.top;
    const x2 = Math.max(...boxes.map((b) => b.x + b.width)) + GROUP_PAD.x;
    const y2 = Math.max(...boxes.map((b) => b.y + b.height)) + GROUP_PAD.bottom;
    out.push(
      `<g class="branch-group"${attr('data-parallel', group.parallel)}${attr('data-branch', group.branch)}>` +
        `<rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" rx="12" fill="#f5f3ff" fill-opacity="0.6" stroke="#8b5cf6" stroke-dasharray="6 4"/>` +
        `<text x="${x1 + 8}" y="${y1 + 14}" font-size="11" fill="#5b21b6">${escapeXml(clip(`${group.parallel} › ${group.branch}`, 40))}</text></g>`,
    );
  }
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
    const attempts = state && state.attempts > 1 ? `${state.attempts} attempts` : state?.attempts === 1 ? '1 attempt' : null;
    const factsHead = [status, attempts].filter(Boolean).join(' · ');
    const facts = [factsHead, duration === null ? null : formatDuration(duration)].filter(Boolean).join(' · ');
    const error = state?.error ? `${state.error.code}: ${state.error.message}` : null;
    const tooltip = [placed.id, kind, facts, node.loop?.text || null, node.waiting?.text ?? null, error].filter(Boolean).join('\n');
    // Running nodes: the page counts the duration on from data-since without asking the server again.
    const live = status === 'running' && state?.startedAt && facts.length <= 36;

    const extra: string[] = [];
    let line = 3;
    if (node.loop?.text) {
      extra.push(`<text x="12" y="${LINE_Y[line++]}" font-size="12" fill="#374151"${CLIP} class="loop-progress">${escapeXml(clip(node.loop.text, LINE_CHARS))}</text>`);
    }
    if (node.waiting) {
      extra.push(`<text x="12" y="${LINE_Y[line++]}" font-size="12" fill="#374151"${CLIP} class="waiting">${escapeXml(clip(node.waiting.text, LINE_CHARS))}</text>`);
    }
    if (state?.child_run_id) {
      extra.push(`<text x="12" y="${LINE_Y[line++]}" font-size="12" fill="#1d4ed8" class="child-run">${escapeXml(`child run ${state.child_run_id.slice(0, 8)}… ↗`)}</text>`);
    }
    if (error && line < LINE_Y.length) {
      const lines = wrapText(error, LINE_CHARS, LINE_Y.length - line);
      const firstY = LINE_Y[line]!;
      extra.push(
        `<text x="12" y="${firstY}" font-size="11" fill="#b91c1c" class="error"${CLIP}>` +
          lines.map((l, i) => `<tspan x="12" y="${LINE_Y[line + i]}">${escapeXml(i < lines.length - 1 ? `${l} ` : l)}</tspan>`).join('') +
          '</text>',
      );
    }
    if (node.loop && node.loop.total) {
      // A bar under the loop: done in the status colour, failed items as red ticks.
      const barWidth = placed.width - 24;
      const done = node.loop.done === null ? 0 : Math.min(1, node.loop.done / node.loop.total);
      extra.push(`<rect class="progress-track" x="12" y="${placed.height - 6}" width="${barWidth}" height="3" rx="1.5" fill="#e5e7eb"/>`);
      if (done > 0) {
        extra.push(`<rect class="progress-done" x="12" y="${placed.height - 6}" width="${r1(barWidth * done)}" height="3" rx="1.5" fill="${colour.stroke}"/>`);
      }
      for (const i of node.loop.failedItems) {
        const x = 12 + Math.min(barWidth - 3, (barWidth * i) / node.loop.total);
        extra.push(`<rect class="progress-failed" x="${r1(x)}" y="${placed.height - 8}" width="3" height="6" fill="#dc2626"/>`);
      }
    }
    out.push(
      `<g class="node" data-node-id="${escapeXml(placed.id)}" data-status="${escapeXml(status)}" data-attempts="${state?.attempts ?? 0}" ` +
        `tabindex="0" role="button"${attr('aria-label', `${placed.id}: ${status}${state?.error ? `, ${state.error.code}` : ''}`)} ` +
        `transform="translate(${placed.x},${placed.y})"><title>${escapeXml(tooltip)}</title>` +
        `<rect class="box" width="${placed.width}" height="${placed.height}" rx="10" fill="${colour.fill}" stroke="${colour.stroke}" ` +
        `stroke-width="${status === 'running' ? 3 : 1.5}"${status === 'skipped' ? ' stroke-dasharray="5 4"' : ''}/>` +
        `<text x="12" y="${LINE_Y[0]}" font-size="14" font-weight="600" fill="${colour.text}"${CLIP}>${escapeXml(clip(placed.id, 28))}</text>` +
        `<text x="12" y="${LINE_Y[1]}" font-size="12" fill="#4b5563"${CLIP}>${escapeXml(clip(kind, LINE_CHARS))}</text>` +
        `<text x="12" y="${LINE_Y[2]}" font-size="12" fill="${colour.text}"${CLIP} class="facts"` +
        `${live ? `${attr('data-since', state.startedAt)}${attr('data-prefix', factsHead ? `${factsHead} · ` : '')}` : ''}>` +
        `${escapeXml(clip(facts, 36))}</text>${extra.join('')}</g>`,
    );
  }
  out.push('</g></svg>');
  return out.join('\n');
}

const r1 = (n: number): number => Math.round(n * 10) / 10;
