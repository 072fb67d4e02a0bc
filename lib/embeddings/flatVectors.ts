/**
 * Vectors of one dimension laid end to end in one Float32Array: how the data lane hands a document's chunk vectors
 * back (a file of raw floats, no JSON of ten thousand arrays on the worker's loop) and how they go into LanceDB's
 * vector column without a number-by-number copy. LanceDB stores float32 either way.
 */
export interface FlatVectors {
  dimensions: number;
  count: number;
  values: Float32Array;
}

/** Vectors laid end to end; one of another dimension is refused (a provider's answer is checked before this). */
export function flatten(vectors: number[][], dimensions: number): FlatVectors {
  const values = new Float32Array(vectors.length * dimensions);
  vectors.forEach((vector, i) => {
    if (vector.length !== dimensions) throw new Error(`a vector of ${vector.length} dimensions where ${dimensions} were declared`);
    values.set(vector, i * dimensions);
  });
  return { dimensions, count: vectors.length, values };
}

/** The vector at `index`, a view (no copy). */
export function vectorAt(flat: FlatVectors, index: number): Float32Array {
  return flat.values.subarray(index * flat.dimensions, (index + 1) * flat.dimensions);
}

/** The document vector: the L2-normalised mean of its chunk vectors. */
export function meanVector(flat: FlatVectors): number[] {
  const sum = new Float64Array(flat.dimensions);
  for (let i = 0; i < flat.count; i += 1) {
    const offset = i * flat.dimensions;
    for (let d = 0; d < flat.dimensions; d += 1) sum[d]! += flat.values[offset + d]!;
  }
  const norm = Math.sqrt(sum.reduce((s, x) => s + x * x, 0)) || 1;
  return Array.from(sum, (x) => x / norm);
}

/** The raw bytes of the values (native byte order: written and read on the same machine). */
export function flatBytes(flat: FlatVectors): Buffer {
  return Buffer.from(flat.values.buffer, flat.values.byteOffset, flat.values.byteLength);
}

/** Vectors from raw bytes written by flatBytes; copied only when the bytes are not aligned for floats. */
export function fromFlatBytes(bytes: Buffer, dimensions: number): FlatVectors {
  if (dimensions < 1 || bytes.length % (4 * dimensions) !== 0) throw new Error(`${bytes.length} bytes are not vectors of ${dimensions} floats`);
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes); // a copy of its own starts at offset 0
  const values = new Float32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  return { dimensions, count: values.length / dimensions, values };
}
