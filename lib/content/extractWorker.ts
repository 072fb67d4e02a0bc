import { parentPort, workerData } from 'node:worker_threads';
import { answerExtractJob } from './extractAnswer';
import type { ExtractJobRequest } from './extractJob';

/**
 * The extraction thread (started by extractJob.ts, one per request): reads the one file it is given, parses it
 * (text, CSV, JSON, XML, HTML), answers a text, regex or field query and ends. The API terminates it at the deadline,
 * and its heap is capped, so no file holds the API's event loop. PDFs and DOCX files never come here, nor JSONata.
 */
void answerExtractJob(workerData as ExtractJobRequest).then((reply) => parentPort?.postMessage(reply));
