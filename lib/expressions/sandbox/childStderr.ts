/**
 * What a sandbox process writes to stderr, passed on to the holding process's stderr line by line under the
 * process's name, except V8's fatal report. That report (GC traces, "JavaScript heap out of memory", a native stack)
 * written verbatim into the API's or the worker's stderr reads as the death of the process holding the sandbox:
 * an operator grepping for it is misled, and a supervisor that scans its children's stderr for it (Jest's worker
 * pool does) takes its living child for dead. So the report is held, and said in one line of our own when the
 * process has ended; a fatal report that is not about memory is passed on whole, under the process's name. The
 * lines go where the pool's owner says (the process's JSON log, lib/expressions/sandbox/index.ts).
 */

/** The first line of V8's report when an allocation ends the process (heap limit, or a size past V8's maximum). */
const ALLOCATION_LINE = /Fatal JavaScript invalid size error|heap out of memory|Allocation failed|Fatal process out of memory/;
/** Lines that open one of V8's fatal reports: from there on, nothing is passed on until the process has ended. */
const REPORT_OPENING = /^<--- Last few GCs --->|^<--- JS stacktrace --->|^#\s*$|^# Fatal|^FATAL ERROR|^Fatal /;
/** A report is a few dozen lines; a runaway writer is cut, not buffered without end. */
const MAX_HELD_LINES = 200;
const MAX_LINE_CHARS = 2000;

export interface ChildStderr {
  /** A chunk of the child's stderr, as it arrives. */
  write(chunk: Buffer): void;
  /** The child has ended and its stderr is read to its end: says what was held, in one line for an allocation. */
  end(): void;
  /** V8 wrote a fatal allocation report: the process ended over a task's memory. */
  readonly allocationReport: boolean;
}

/** `out` gets one line at a time, without its line feed. */
export function childStderr(name: string, heapMb: number, out: (line: string) => void): ChildStderr {
  let partial = '';
  let reporting = false;
  let allocation: 'heap' | 'size' | null = null;
  const held: string[] = [];

  function line(text: string): void {
    if (!reporting && REPORT_OPENING.test(text)) reporting = true;
    if (ALLOCATION_LINE.test(text)) {
      reporting = true;
      allocation ??= /invalid size/.test(text) ? 'size' : 'heap';
    }
    if (!reporting) {
      if (text.trim()) out(`${name}: ${text}`);
    }
    else if (held.length < MAX_HELD_LINES) held.push(text);
  }

  return {
    write(chunk) {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > MAX_LINE_CHARS) {
        lines.push(partial.slice(0, MAX_LINE_CHARS));
        partial = '';
      }
      for (const text of lines) line(text.slice(0, MAX_LINE_CHARS));
    },
    end() {
      if (partial) line(partial);
      partial = '';
      if (allocation === 'size') out(`${name}: ended by V8: a task asked for a value past V8's maximum size`);
      else if (allocation === 'heap') out(`${name}: ended by V8: a task needed more than the ${heapMb} MB heap the sandbox allows`);
      else for (const text of held) if (text.trim()) out(`${name}: ${text}`);
      held.length = 0;
    },
    get allocationReport() {
      return allocation !== null;
    },
  };
}
