import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../lib/config';
import { dimensionsOf, storageOptionsFor } from '../../lib/vectors/connection';
import { andAll, ownerFilter, searchFilter } from '../../lib/vectors/filters';
import { FTS_OPTIONS, ftsHasPositions, ivfPartitionsFor, missingFastIndexes, needsOptimize, needsPositionalFts, needsVectorIndex } from '../../lib/vectors/indexes';
import { isLanceTempEntry, processTempDir, removingTempLeftovers, useScratchDirForTempFiles } from '../../lib/vectors/scratch';
import { indexKnowledgeFresh, toHit } from '../../lib/vectors/search';

const minio = loadConfig({ SERVICE_JWT_SECRET: 'x'.repeat(32) }).minio;

describe('filters', () => {
  test('owner and search filters quote values and skip what is absent', () => {
    expect(andAll(['a', null, undefined, 'b'])).toBe('a AND b');
    expect(ownerFilter('o')).toBe("organization_id = 'o'");
    expect(ownerFilter('o', "c'1")).toBe("organization_id = 'o' AND content_id = 'c''1'");
    expect(searchFilter({ organizationId: 'o', kind: 'chunk' })).toBe("organization_id = 'o' AND kind = 'chunk'");
    expect(searchFilter({ organizationId: 'o', kind: 'document', contentIds: ['a', 'b'], excludeContentId: 'x' })).toBe(
      "organization_id = 'o' AND kind = 'document' AND content_id IN ('a', 'b') AND content_id != 'x'",
    );
  });
});

describe('connection', () => {
  test('S3 settings only for s3:// locations', () => {
    expect(storageOptionsFor('.data/lancedb', minio)).toBeUndefined();
    expect(storageOptionsFor('s3://b/p', { ...minio, useSSL: true })).toMatchObject({ aws_endpoint: `https://${minio.endPoint}:${minio.port}`, allow_http: 'false' });
  });
  test('dimensionsOf reads the vector column', () => {
    expect(dimensionsOf({ fields: [{ name: 'id', type: {} }, { name: 'vector', type: { listSize: 384 } }] })).toBe(384);
    expect(dimensionsOf({ fields: [] })).toBeNull();
  });
});

describe('indexes', () => {
  const index = (column: string, indexType: string, numUnindexedRows = 0) => ({ columns: [column], indexType, numUnindexedRows });
  test('IVF partitions: none below the threshold, 256 rows each, at most 256', () => {
    expect(ivfPartitionsFor(999, 1000)).toBeNull();
    expect(ivfPartitionsFor(1000, 1000)).toBe(4);
    expect(ivfPartitionsFor(10_000_000, 1000)).toBe(256);
  });
  test('a vector index is built when missing or of an older type; optimize past 1000 unindexed rows', () => {
    expect(needsVectorIndex([])).toBe(true);
    expect(needsVectorIndex([index('vector', 'IvfHnswSq')])).toBe(true);
    expect(needsVectorIndex([index('vector', 'IvfFlat')])).toBe(false);
    expect(needsOptimize([index('vector', 'IvfFlat', 1000)])).toBe(false);
    expect(needsOptimize([index('vector', 'IvfFlat', 10), index('text', 'FTS', 1001)])).toBe(true);
  });
  test('missing fast indexes', () => {
    expect(missingFastIndexes([])).toEqual({ fts: true, bitmaps: ['organization_id', 'kind'] });
    expect(missingFastIndexes([index('text', 'FTS'), index('kind', 'Bitmap')])).toEqual({ fts: false, bitmaps: ['organization_id'] });
  });
  test('a full-text index without positions is rebuilt with them', () => {
    const fts = (withPosition: boolean | undefined) => ({ ...index('text', 'FTS'), indexDetails: { stem: true, ...(withPosition === undefined ? {} : { with_position: withPosition }) } });
    expect(ftsHasPositions([fts(true)])).toBe(true);
    expect(needsPositionalFts([fts(true)])).toBe(false);
    expect(needsPositionalFts([fts(false)])).toBe(true);
    expect(needsPositionalFts([fts(undefined)])).toBe(true);
    expect(needsPositionalFts([])).toBe(false); // missing: built with positions by the fast path
    expect(FTS_OPTIONS.withPosition).toBe(true);
  });
});

describe('search', () => {
  test('toHit maps a row', () => {
    expect(toHit({ content_id: 'c', version: 2, chunk_index: 3, kind: 'chunk', text: 't' }, 0.5)).toEqual({
      contentId: 'c',
      version: 2,
      chunkIndex: 3,
      kind: 'chunk',
      text: 't',
      score: 0.5,
    });
  });
  test('index knowledge: a found index stays known; a missing FTS index is looked for each time, a vector one every 10 s', () => {
    const known = { fts: false, ftsPositions: false, vector: false, checkedAt: 1000 };
    expect(indexKnowledgeFresh(undefined, 'fts', 1000)).toBe(false);
    expect(indexKnowledgeFresh(known, 'fts', 1000)).toBe(false);
    expect(indexKnowledgeFresh(known, 'vector', 10_999)).toBe(true);
    expect(indexKnowledgeFresh(known, 'vector', 11_000)).toBe(false);
    expect(indexKnowledgeFresh({ ...known, fts: true }, 'fts', 10 ** 9)).toBe(true);
    // Positions: known once seen; an index without them is looked at again every 10 s (its rebuild runs in the background).
    expect(indexKnowledgeFresh({ ...known, fts: true }, 'ftsPositions', 10_999)).toBe(true);
    expect(indexKnowledgeFresh({ ...known, fts: true }, 'ftsPositions', 11_000)).toBe(false);
    expect(indexKnowledgeFresh(known, 'ftsPositions', 1000)).toBe(false);
    expect(indexKnowledgeFresh({ ...known, fts: true, ftsPositions: true }, 'ftsPositions', 10 ** 9)).toBe(true);
  });
});

describe('scratch', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'loom-scratch-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('LanceDB temporary folder names', () => {
    expect(isLanceTempEntry('.tmpAb12Cd')).toBe(true);
    expect(isLanceTempEntry('tsx-0')).toBe(false);
    expect(isLanceTempEntry('.tmp')).toBe(false);
  });
  test('useScratchDirForTempFiles: a folder per process, made TMPDIR, stale LanceDB folders removed', () => {
    const mine = processTempDir(dir, process.pid);
    mkdirSync(path.join(mine, '.tmpStale1'), { recursive: true });
    writeFileSync(path.join(mine, 'keep.txt'), '');
    const env: NodeJS.ProcessEnv = {};
    expect(useScratchDirForTempFiles(dir, env)).toBe(mine);
    expect(env.TMPDIR).toBe(mine);
    expect(readdirSync(mine)).toEqual(['keep.txt']);
    expect(processTempDir(dir, 42)).toBe(path.resolve(dir, '42'));
  });
  test('removingTempLeftovers removes the LanceDB folders that appeared during the work, even when it fails', async () => {
    mkdirSync(path.join(dir, '.tmpBefore'));
    const removed: string[][] = [];
    const result = await removingTempLeftovers(
      dir,
      async () => {
        mkdirSync(path.join(dir, '.tmpDuring'));
        mkdirSync(path.join(dir, 'other'));
        return 7;
      },
      (names) => removed.push(names),
    );
    expect(result).toBe(7);
    expect(removed).toEqual([['.tmpDuring']]);
    expect(readdirSync(dir).sort()).toEqual(['.tmpBefore', 'other']);
    await expect(
      removingTempLeftovers(dir, async () => {
        mkdirSync(path.join(dir, '.tmpFailed'));
        throw new Error('build failed');
      }),
    ).rejects.toThrow('build failed');
    expect(existsSync(path.join(dir, '.tmpFailed'))).toBe(false);
  });
  test('removingTempLeftovers in a folder that does not exist runs the work and removes nothing', async () => {
    const removed = jest.fn();
    await expect(removingTempLeftovers(path.join(dir, 'absent'), async () => 'ok', removed)).resolves.toBe('ok');
    expect(removed).not.toHaveBeenCalled();
  });
});
