// The core entry: same detection for buffers, and resolvable by Jest's CommonJS runtime (see jest.config.js).
import { fileTypeFromBuffer } from 'file-type/core';

/** MIME sniffing and the coarse media type used for filters. Pure functions over the first bytes of a file. */

export type MediaType = 'document' | 'image' | 'video' | 'audio' | 'structured' | 'other';

/** Enough bytes for file-type's signatures and for the text heuristics below. */
export const SNIFF_BYTES = 8192;

const STRUCTURED = new Set([
  'application/json',
  'text/csv',
  'application/xml',
  'text/xml',
  'application/yaml',
  'text/yaml',
  'application/x-ndjson',
]);
const DOCUMENTS = new Set([
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.oasis.opendocument.text',
  'application/rtf',
  'application/epub+zip',
  'text/plain',
  'text/markdown',
  'text/html',
]);

export function mediaTypeOf(mime: string): MediaType {
  if (STRUCTURED.has(mime)) return 'structured';
  if (DOCUMENTS.has(mime)) return 'document';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('text/')) return 'document';
  return 'other';
}

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot >= 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

/** UTF-8 (or ASCII) text without NUL bytes and with few control characters. A cut multi-byte tail is fine. */
export function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return true;
  if (head.includes(0)) return false;
  let control = 0;
  for (const byte of head) if (byte < 9 || (byte > 13 && byte < 32)) control += 1;
  if (control / head.length > 0.01) return false;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, Math.max(0, head.length - 4)));
  return !decoded.includes('\uFFFD');
}

function textSubtype(head: Buffer, filename: string, declared: string | null): string {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const start = text.trimStart();
  const ext = extensionOf(filename);
  if (/^<!doctype html|^<html[\s>]/i.test(start) || (ext === 'html' || ext === 'htm') && start.startsWith('<')) return 'text/html';
  if (start.startsWith('<?xml') || (start.startsWith('<') && /^<[A-Za-z_][\w.:-]*[\s>/]/.test(start))) {
    return /<html[\s>]/i.test(start.slice(0, 2000)) ? 'text/html' : 'application/xml';
  }
  if (start.startsWith('{') || start.startsWith('[')) {
    try {
      JSON.parse(text);
      return 'application/json';
    } catch {
      // A JSON document longer than the sniffed head cannot be parsed whole; trust the opening and the hints.
      if (ext === 'json' || declared === 'application/json' || /^[[{]\s*["{[\]}]/.test(start)) return 'application/json';
    }
  }
  if (ext === 'csv' || declared === 'text/csv' || looksLikeCsv(text)) return 'text/csv';
  if (ext === 'md' || ext === 'markdown' || declared === 'text/markdown') return 'text/markdown';
  if (ext === 'yaml' || ext === 'yml' || declared === 'application/yaml' || declared === 'text/yaml') return 'application/yaml';
  return 'text/plain';
}

function looksLikeCsv(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0).slice(0, 20);
  if (lines.length < 2) return false;
  const counts = lines.map((l) => (l.match(/,/g) ?? []).length);
  return counts[0]! >= 1 && counts.every((c) => c === counts[0]);
}

/**
 * The type recorded for an upload: the signature found in the bytes wins over the client's claim; when there is
 * no signature and the bytes are text, the subtype comes from the content (with the extension or the claim as
 * hints for CSV, Markdown and YAML); otherwise `application/octet-stream`.
 */
export async function sniffMimeType(head: Buffer, filename: string, declared: string | null): Promise<string> {
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (found) {
    // file-type reports XML-based formats by signature; HTML is text we recognise better ourselves.
    if (found.mime === 'application/xml' && looksLikeText(head)) return textSubtype(head, filename, declared);
    return found.mime;
  }
  if (looksLikeText(head)) return textSubtype(head, filename, declared);
  return 'application/octet-stream';
}
