import { Float32, Int32, makeData, RecordBatch, Struct, Table, Utf8, type Data, type FixedSizeList } from 'apache-arrow';
import { vectorSchema, type VectorRow } from './schema';

/**
 * Rows as an Arrow table built column by column from typed arrays. LanceDB turns plain objects into Arrow with a
 * builder that appends value by value: 10,000 rows of 100-dimension vectors held the worker's event loop ~440 ms,
 * which every tenant's runs share (issue 40). Here each vector is one `set` into one Float32Array and each text
 * column one buffer: a few milliseconds for the same rows.
 */
function utf8Column(values: string[]): Data<Utf8> {
  const offsets = new Int32Array(values.length + 1);
  for (let i = 0; i < values.length; i += 1) offsets[i + 1] = offsets[i]! + Buffer.byteLength(values[i]!, 'utf8');
  const bytes = Buffer.allocUnsafe(offsets[values.length]!);
  for (let i = 0; i < values.length; i += 1) bytes.write(values[i]!, offsets[i]!, 'utf8');
  return makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets: offsets, data: bytes });
}

function int32Column(values: number[]): Data<Int32> {
  return makeData({ type: new Int32(), length: values.length, nullCount: 0, data: Int32Array.from(values) });
}

export function vectorRowsTable(rows: VectorRow[], dimensions: number): Table {
  const schema = vectorSchema(dimensions);
  const vectors = new Float32Array(rows.length * dimensions);
  rows.forEach((row, i) => {
    if (row.vector.length !== dimensions) throw new Error(`a vector of ${row.vector.length} dimensions in a table of ${dimensions}`);
    vectors.set(row.vector, i * dimensions);
  });
  const vectorType = schema.fields.find((field) => field.name === 'vector')!.type as FixedSizeList<Float32>;
  const columns: Record<string, Data> = {
    id: utf8Column(rows.map((row) => row.id)),
    organization_id: utf8Column(rows.map((row) => row.organization_id)),
    content_id: utf8Column(rows.map((row) => row.content_id)),
    version: int32Column(rows.map((row) => row.version)),
    kind: utf8Column(rows.map((row) => row.kind)),
    source: utf8Column(rows.map((row) => row.source)),
    chunk_index: int32Column(rows.map((row) => row.chunk_index)),
    text: utf8Column(rows.map((row) => row.text)),
    model: utf8Column(rows.map((row) => row.model)),
    vector: makeData({
      type: vectorType,
      length: rows.length,
      nullCount: 0,
      child: makeData({ type: new Float32(), length: vectors.length, nullCount: 0, data: vectors }),
    }),
  };
  const data = makeData({
    type: new Struct(schema.fields),
    length: rows.length,
    nullCount: 0,
    children: schema.fields.map((field) => columns[field.name]!),
  });
  return new Table([new RecordBatch(schema, data)]);
}
