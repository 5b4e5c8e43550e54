/**
 * The official CEN/TC 434 EN 16931 validation rules (release 1.3.16, `rules/`, EUPL-1.2: the
 * licence and the XSLT sources are kept beside the compiled SEF files), run by SaxonJS in a
 * worker thread: loading them takes about half a second and a document 35–160 ms, so they
 * never run on the event loop of a server. One thread, started on first use, documents
 * queued to it in order; it does not keep the process alive.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** A failed assertion of the rules: its id (`BR-CO-15`), flag and text. */
export interface RuleFailure {
  id: string;
  flag: 'fatal' | 'warning' | string;
  location: string;
  text: string;
}

export interface ValidationReport {
  syntax: 'ubl' | 'cii';
  /** Every failed assertion, warnings included. */
  failures: RuleFailure[];
  /** The fatal ones: a document with any is not valid. */
  fatal: RuleFailure[];
  /** How many rules fired (a document the rules did not recognise fires almost none). */
  fired: number;
  /** Milliseconds the rules took in the worker. */
  ms: number;
}

/** Where the rules are: beside the sources, or beside a bundle (`dist/einvoicing-rules`). */
export function rulesDirectory(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    process.env.EINVOICING_RULES_DIR,
    path.join(here, '..', 'rules'),
    path.join(here, 'einvoicing-rules'),
  ].filter((c): c is string => !!c);
  const found = candidates.find((c) => existsSync(path.join(c, 'sef')));
  if (!found)
    throw new Error(`the EN 16931 rules are not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** The syntax of an XML document, from its root's namespace. */
export function syntaxOf(xml: string): 'ubl' | 'cii' | undefined {
  const head = xml.slice(0, 4096);
  if (/urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100/.test(head)) return 'cii';
  if (/urn:oasis:names:specification:ubl:schema:xsd:(Invoice|CreditNote)-2/.test(head))
    return 'ubl';
  return undefined;
}

// The worker's code: CommonJS, given the resolved module and the rules' folder.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const SaxonJS = require(workerData.saxon);
const sefs = {};
function sef(kind) {
  if (!sefs[kind]) {
    const file = path.join(workerData.rules, 'sef', 'EN16931-' + kind.toUpperCase() + '-validation.sef.json.gz');
    sefs[kind] = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
  }
  return sefs[kind];
}
const ns = { svrl: 'http://purl.oclc.org/dsdl/svrl' };
parentPort.on('message', ({ id, kind, xml }) => {
  const started = process.hrtime.bigint();
  try {
    const result = SaxonJS.transform({ stylesheetInternal: sef(kind), sourceText: xml, destination: 'serialized' }, 'sync');
    const doc = SaxonJS.XPath.evaluate('parse-xml($s)', null, { params: { s: result.principalResult } });
    const failures = SaxonJS.XPath.evaluate(
      '//svrl:failed-assert ! map{"id": string(@id), "flag": string(@flag), "location": string(@location), "text": normalize-space(svrl:text)}',
      doc, { namespaceContext: ns, resultForm: 'array' });
    const fired = SaxonJS.XPath.evaluate('count(//svrl:fired-rule)', doc, { namespaceContext: ns });
    parentPort.postMessage({ id, failures, fired, ms: Number(process.hrtime.bigint() - started) / 1e6 });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Pending {
  resolve: (report: ValidationReport) => void;
  reject: (error: Error) => void;
  syntax: 'ubl' | 'cii';
}

/** Thrown when the rules cannot read a document at all (not XML, not a syntax they know). */
export class ValidationError extends Error {}

export class Validator {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 0;

  private start(): Worker {
    if (this.worker) return this.worker;
    const require = createRequire(import.meta.url);
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { saxon: require.resolve('saxon-js'), rules: rulesDirectory() },
    });
    worker.unref();
    worker.on('message', (message: { id: number; error?: string } & Partial<ValidationReport>) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      if (message.error) {
        waiting.reject(new ValidationError(message.error));
        return;
      }
      const failures = message.failures ?? [];
      waiting.resolve({
        syntax: waiting.syntax,
        failures,
        fatal: failures.filter((f) => f.flag !== 'warning'),
        fired: message.fired ?? 0,
        ms: message.ms ?? 0,
      });
    });
    const fail = (error: Error) => {
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      this.worker = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the validation thread stopped (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Runs the rules of the document's syntax; a document of no known syntax is refused. */
  validate(xml: string): Promise<ValidationReport> {
    const syntax = syntaxOf(xml);
    if (!syntax)
      return Promise.reject(
        new ValidationError('not a UBL 2.1 Invoice or CreditNote, nor a CII D16B invoice'),
      );
    const worker = this.start();
    const id = this.next++;
    return new Promise<ValidationReport>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, syntax });
      worker.ref();
      worker.postMessage({ id, kind: syntax, xml });
    });
  }

  /** Loads both rule sets now (a server may warm up at start rather than on the first import). */
  async warm(): Promise<void> {
    this.start();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}

/** The process's validator. */
export const validator = new Validator();
