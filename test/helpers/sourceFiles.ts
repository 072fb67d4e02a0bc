import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository's root, and the layers whose source the architecture tests read. */
export const ROOT = path.resolve(__dirname, '..', '..');
export const LAYERS = ['api', 'domain', 'activities', 'lib', 'worker', 'scripts', 'workflows'];

/** Every `.ts` file under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Comments out, so prose such as "update the run" or a factory named in a comment is not read as code. */
export function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}
