import { encodeWordVectors, type WordVectorEntry } from './format';
import { foldWord, isIndexableWord, sifWeight, zipfProbability } from './weights';

/**
 * Reads the package's JSON (`{"size": N, "dimensions": D, "words": [...], "vectors": {"word": [v1..vD, l2norm,
 * rank], ...}}`) with a byte scanner rather than JSON.parse: the file is 300 MB, and parsing it whole takes gigabytes
 * of heap. Only words the tokenizer can produce are kept (letters and digits, accents folded as the tokenizer folds
 * them; the commoner spelling wins a collision), so punctuation tokens and "n't" go.
 */
export function convertWinkJson(json: Buffer): Buffer {
  const size = readHeaderNumber(json, 'size');
  const dimensions = readHeaderNumber(json, 'dimensions');
  const start = json.indexOf('"vectors":{');
  if (start < 0) throw new Error('no "vectors" object in the word-vector JSON');
  const entries = new Map<string, WordVectorEntry>();
  let at = start + '"vectors":{'.length;
  const values = new Float64Array(dimensions + 2);
  for (;;) {
    at = skipSeparators(json, at);
    if (json[at] === 0x7d /* } */) break;
    if (json[at] !== 0x22 /* " */) throw new Error(`word-vector JSON: expected a key at byte ${at}`);
    const keyStart = at + 1;
    let escaped = false;
    at = keyStart;
    while (json[at] !== 0x22) {
      if (json[at] === 0x5c /* \ */) {
        escaped = true;
        at += 1;
      }
      at += 1;
    }
    const keyEnd = at;
    at = skipSeparators(json, at + 1); // the closing quote, then ':'
    if (json[at] !== 0x5b /* [ */) throw new Error(`word-vector JSON: expected an array at byte ${at}`);
    at += 1;
    let count = 0;
    while (json[at] !== 0x5d /* ] */) {
      at = skipSeparators(json, at);
      const [value, next] = readNumber(json, at);
      if (count < values.length) values[count] = value;
      count += 1;
      at = skipSeparators(json, next);
    }
    at += 1;
    if (escaped || count !== dimensions + 2) continue;
    const word = foldWord(json.toString('utf8', keyStart, keyEnd));
    if (!isIndexableWord(word)) continue;
    const rank = values[dimensions + 1]!;
    const known = entries.get(word);
    if (known && known.rank <= rank) continue;
    entries.set(word, { word, rank, vector: Float32Array.from(values.subarray(0, dimensions)) });
  }
  const sorted = [...entries.values()].sort((a, b) => a.rank - b.rank);
  return encodeWordVectors(sorted, dimensions, commonComponent(sorted, dimensions, size), size);
}

/**
 * SIF's common component (Arora et al., 2017) is the first singular vector of a corpus's sentence vectors. Every
 * sentence vector is a weighted mean of word vectors, and that direction is dominated by their expected value
 * over running text: Σ p(w)·weight(w)·v(w), with p estimated from the frequency rank (Zipf). We have the
 * vocabulary, not a corpus, so that mean stands in for it.
 */
function commonComponent(entries: WordVectorEntry[], dimensions: number, sourceSize: number): Float32Array {
  const mean = new Float64Array(dimensions);
  for (const entry of entries) {
    const p = zipfProbability(entry.rank, sourceSize);
    const w = p * sifWeight(p);
    for (let d = 0; d < dimensions; d += 1) mean[d]! += w * entry.vector[d]!;
  }
  const norm = Math.sqrt(mean.reduce((s, v) => s + v * v, 0));
  return Float32Array.from(mean, (v) => (norm > 0 ? v / norm : 0));
}

function readHeaderNumber(json: Buffer, name: string): number {
  const head = json.toString('latin1', 0, 4096);
  const match = new RegExp(`"${name}":(\\d+)`).exec(head);
  if (!match) throw new Error(`word-vector JSON: no "${name}" in its header`);
  return Number(match[1]);
}

function skipSeparators(json: Buffer, at: number): number {
  for (;;) {
    const c = json[at];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x2c /* , */ || c === 0x3a /* : */) at += 1;
    else return at;
  }
}

/** A JSON number at `at`, parsed from its bytes (35 million of them: no string per number). */
function readNumber(json: Buffer, at: number): [number, number] {
  let sign = 1;
  if (json[at] === 0x2d) {
    sign = -1;
    at += 1;
  }
  let mantissa = 0;
  let scale = 0;
  let fraction = false;
  for (;;) {
    const c = json[at]!;
    if (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      if (fraction) scale -= 1;
    } else if (c === 0x2e) fraction = true;
    else break;
    at += 1;
  }
  if (json[at] === 0x65 || json[at] === 0x45) {
    at += 1;
    let expSign = 1;
    if (json[at] === 0x2d || json[at] === 0x2b) {
      if (json[at] === 0x2d) expSign = -1;
      at += 1;
    }
    let exponent = 0;
    while (json[at]! >= 0x30 && json[at]! <= 0x39) exponent = exponent * 10 + (json[at++]! - 0x30);
    scale += expSign * exponent;
  }
  return [sign * mantissa * 10 ** scale, at];
}
