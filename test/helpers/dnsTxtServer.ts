import { createSocket, type RemoteInfo } from 'node:dgram';

/**
 * A tiny authoritative DNS server over UDP on 127.0.0.1 that answers TXT questions from a table the test fills, so
 * domain verification (SERVICE_DOMAIN_VERIFICATION_DNS_SERVERS) is tested through the platform's real resolver
 * path. Wire format of RFC 1035 section 4: a name it has records for gets them (NOERROR), a name it knows without TXT
 * gets none (NOERROR, no answers: ENODATA), any other name NXDOMAIN (ENOTFOUND). `silent` names get no answer at all
 * (a dead server: the lookup times out).
 */
export interface DnsTxtServer {
  /** `127.0.0.1:<port>`, for SERVICE_DOMAIN_VERIFICATION_DNS_SERVERS. */
  address: string;
  /** Sets the TXT records of a name (case-insensitive, no final dot); [] = the name exists without TXT. */
  setTxt(name: string, records: string[]): void;
  silence(name: string): void;
  /** Names asked, in order (lower-cased). */
  questions: string[];
  close(): Promise<void>;
}

const TYPE_TXT = 16;
const CLASS_IN = 1;

/** The question's name and where the question section ends (after QTYPE and QCLASS). */
function readQuestion(msg: Buffer): { name: string; type: number; end: number } | null {
  let offset = 12;
  const labels: string[] = [];
  while (offset < msg.length) {
    const len = msg[offset]!;
    if (len === 0) {
      offset += 1;
      break;
    }
    if (len > 63) return null; // no compression in a question we sent ourselves
    labels.push(msg.subarray(offset + 1, offset + 1 + len).toString('latin1'));
    offset += 1 + len;
  }
  if (offset + 4 > msg.length) return null;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(offset), end: offset + 4 };
}

function txtRdata(record: string): Buffer {
  // A TXT record is a sequence of character-strings of at most 255 bytes each.
  const bytes = Buffer.from(record, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
    if (bytes.length === 0) break;
  }
  return Buffer.concat(parts);
}

function answer(query: Buffer, question: { name: string; type: number; end: number }, records: string[] | undefined): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  const rd = query[2]! & 0x01;
  header[2] = 0x84 | rd; // QR, AA, RD copied
  header[3] = records === undefined ? 0x83 : 0x80; // RA; NXDOMAIN or NOERROR
  const answers = records !== undefined && question.type === TYPE_TXT ? records : [];
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const rrs = answers.map((record) => {
    const rdata = txtRdata(record);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(CLASS_IN, 4);
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...rrs]);
}

export async function startDnsTxtServer(): Promise<DnsTxtServer> {
  const table = new Map<string, string[]>();
  const silent = new Set<string>();
  const questions: string[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (msg: Buffer, from: RemoteInfo) => {
    const question = msg.length >= 12 ? readQuestion(msg) : null;
    if (!question) return;
    questions.push(question.name);
    if (silent.has(question.name)) return;
    socket.send(answer(msg, question, table.get(question.name)), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    setTxt: (name, records) => table.set(name.toLowerCase().replace(/\.$/, ''), records),
    silence: (name) => silent.add(name.toLowerCase()),
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
