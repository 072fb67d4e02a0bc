import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './procs';
import type { ProfileSummary } from './results';

/**
 * Reads the V8 CPU profiles (`node --cpu-prof`) one process wrote (one file per JS thread: the worker's workflow
 * threads included) and ranks functions and modules by self time. Idle time is left out; `(program)` (native
 * code outside JS, e.g. the Temporal core bridge) and `(garbage collector)` are kept: they are real costs.
 */
interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Which samples count, as milliseconds before the end of each profile (profiles end when the process exits):
 * start-up (module loading, bundle compilation) and shutdown are left out this way.
 */
export interface ProfileWindow {
  fromEndMs: number;
  toEndMs: number;
}

function moduleOf(url: string): string {
  if (!url) return '(native)';
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (file.startsWith('node:')) return file;
  return path.relative(REPO_ROOT, file) || file;
}

export function summarizeProfiles(processName: string, dir: string, window?: ProfileWindow, topN = 8): ProfileSummary & { topModules: { module: string; selfMs: number; share: number }[] } {
  const byFunction = new Map<string, { name: string; where: string; selfUs: number }>();
  const byModule = new Map<string, number>();
  let totalUs = 0;
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    let at = profile.startTime;
    profile.samples.forEach((nodeId, i) => {
      const node = nodes.get(nodeId);
      const delta = profile.timeDeltas[i] ?? 0;
      at += delta;
      const beforeEndMs = (profile.endTime - at) / 1000;
      if (window && (beforeEndMs > window.fromEndMs || beforeEndMs < window.toEndMs)) return;
      if (!node || node.callFrame.functionName === '(idle)' || delta <= 0) return;
      const { functionName, url, lineNumber } = node.callFrame;
      const where = url ? `${moduleOf(url)}:${lineNumber + 1}` : '';
      const key = `${functionName}@${where}`;
      const entry = byFunction.get(key) ?? { name: functionName || '(anonymous)', where, selfUs: 0 };
      entry.selfUs += delta;
      byFunction.set(key, entry);
      const module = url ? moduleOf(url) : functionName;
      byModule.set(module, (byModule.get(module) ?? 0) + delta);
      totalUs += delta;
    });
  }
  const share = (us: number) => (totalUs ? Math.round((us / totalUs) * 1000) / 10 : 0);
  return {
    process: processName,
    samplesMs: Math.round(totalUs / 1000),
    top: [...byFunction.values()]
      .sort((a, b) => b.selfUs - a.selfUs)
      .slice(0, topN)
      .map((f) => ({ name: f.name, where: f.where, selfMs: Math.round(f.selfUs / 1000), share: share(f.selfUs) })),
    topModules: [...byModule.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([module, us]) => ({ module, selfMs: Math.round(us / 1000), share: share(us) })),
  };
}
