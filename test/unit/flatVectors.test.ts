import { flatBytes, flatten, fromFlatBytes, meanVector, vectorAt } from '../../lib/embeddings/flatVectors';

/** Vectors laid end to end (lib/embeddings/flatVectors.ts): how the data lane hands them back and LanceDB takes them. */
test('vectors survive the trip through raw bytes, aligned or not', () => {
  const flat = flatten([[1, 2, 3], [4, 5, 6]], 3);
  expect(Array.from(vectorAt(flat, 1))).toEqual([4, 5, 6]);
  const bytes = flatBytes(flat);
  expect(bytes.length).toBe(24);
  const back = fromFlatBytes(bytes, 3);
  expect({ count: back.count, values: Array.from(back.values) }).toEqual({ count: 2, values: [1, 2, 3, 4, 5, 6] });
  // A Buffer that starts one byte into its memory cannot be viewed as floats: it is copied.
  const shifted = Buffer.concat([Buffer.from([0]), bytes]).subarray(1);
  expect(shifted.byteOffset % 4).not.toBe(0);
  expect(Array.from(fromFlatBytes(shifted, 3).values)).toEqual([1, 2, 3, 4, 5, 6]);
  expect(() => fromFlatBytes(Buffer.alloc(10), 3)).toThrow('10 bytes are not vectors of 3 floats');
  expect(() => flatten([[1, 2, 3], [4, 5]], 3)).toThrow('a vector of 2 dimensions where 3 were declared');
});

test('the document vector is the unit-length mean of its chunks', () => {
  const mean = meanVector(flatten([[1, 0], [0, 1]], 2));
  expect(mean[0]).toBeCloseTo(Math.SQRT1_2, 6);
  expect(mean[1]).toBeCloseTo(Math.SQRT1_2, 6);
  expect(meanVector(flatten([[0, 0]], 2))).toEqual([0, 0]);
});
