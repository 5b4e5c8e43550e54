/** An app `pnpm dev` starts, and the URL that answers 200 once it is up. */
export interface AppProbe {
  name: string;
  healthUrl: string;
}

export interface StartFailure {
  app: string;
  reason: string;
}

export type StartOutcome = { ready: true } | { ready: false; failures: StartFailure[] };

export interface StartWatchOptions {
  apps: readonly AppProbe[];
  /** Resolves when turbo has exited: an app that has not answered by then never will. */
  exited: Promise<unknown>;
  /** How long an app may take to answer (tsx compiles it first). */
  timeoutMs?: number;
  /**
   * After a first failure, how long the apps still starting may take to answer or tell their
   * own reason, so the line covers every app that cannot start.
   */
  graceMs?: number;
  pollMs?: number;
}

export interface StartWatch {
  /** Every line of the apps' output, turbo's prefix included. */
  onLine(line: string): void;
  outcome: Promise<StartOutcome>;
}

// Strips terminal colours: the line is compared, not shown.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts every colour sequence.
const ANSI = /\u001b\[[0-9;]*m/g;
// turbo's prefix: `@erp/landing:dev: `.
const TURBO_PREFIX = /^@[\w-]+\/([\w-]+):[\w-]+: ?(.*)$/;

/**
 * The line each app's `main.ts` writes before it exits because it cannot start (SPEC §2: one
 * clear line naming the variable): `<app>: invalid configuration: …`, `<app>: failed to start: …`.
 */
export function startFailureIn(line: string): StartFailure | undefined {
  const plain = line.replace(ANSI, '');
  const text = TURBO_PREFIX.exec(plain)?.[2] ?? plain;
  const match = /^([\w-]+): ((?:invalid configuration|failed to start): .+)$/.exec(text.trim());
  return match ? { app: match[1] as string, reason: match[2] as string } : undefined;
}

/**
 * Watches the apps come up: each must answer its health URL; an app that reports it cannot
 * start, or does not answer in time, fails the start. After a first failure the apps still
 * starting get up to `graceMs` to answer or report theirs, so one bad variable shared by two
 * apps is told once.
 */
export function watchStart(options: StartWatchOptions): StartWatch {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const graceMs = options.graceMs ?? 15_000;
  const pollMs = options.pollMs ?? 250;
  const reasons = new Map<string, string[]>();
  const lastOutput = new Map<string, string>();
  const ready = new Set<string>();
  let settle: (outcome: StartOutcome) => void = () => {};
  const outcome = new Promise<StartOutcome>((resolve) => {
    settle = resolve;
  });
  let settled = false;
  let graceTimer: NodeJS.Timeout | undefined;

  const failures = (): StartFailure[] =>
    options.apps
      .filter((app) => reasons.has(app.name))
      .map((app) => ({ app: app.name, reason: (reasons.get(app.name) ?? []).join('; ') }));
  const finish = (result: StartOutcome) => {
    if (settled) return;
    settled = true;
    clearTimeout(graceTimer);
    settle(result);
  };
  const failNow = () => finish({ ready: false, failures: failures() });
  // Every app has answered or failed: nothing more to wait for.
  const checkSettled = () => {
    if (options.apps.every((app) => ready.has(app.name) || reasons.has(app.name))) {
      if (reasons.size === 0) finish({ ready: true });
      else failNow();
    }
  };
  const fail = (app: string, reason: string) => {
    if (settled || ready.has(app)) return;
    reasons.set(app, [...(reasons.get(app) ?? []), reason]);
    graceTimer ??= setTimeout(failNow, graceMs);
    // An app writes one line per bad variable: the rest follow at once.
    setTimeout(checkSettled, 50);
  };

  const deadline = Date.now() + timeoutMs;
  for (const app of options.apps) {
    void (async () => {
      while (!settled && !reasons.has(app.name)) {
        if (await answers(app.healthUrl)) {
          ready.add(app.name);
          checkSettled();
          return;
        }
        if (Date.now() > deadline) {
          const last = lastOutput.get(app.name);
          const seconds = Math.round(timeoutMs / 1000);
          fail(
            app.name,
            `did not answer ${app.healthUrl} within ${seconds} s${last ? ` (last output: ${last})` : ''}`,
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    })();
  }
  void options.exited.then(() => {
    for (const app of options.apps)
      if (!ready.has(app.name)) fail(app.name, 'exited before answering');
  });

  return {
    onLine(line) {
      const failure = startFailureIn(line);
      if (failure && options.apps.some((app) => app.name === failure.app)) {
        fail(failure.app, failure.reason);
        return;
      }
      const prefixed = TURBO_PREFIX.exec(line.replace(ANSI, ''));
      const app = options.apps.find((a) => a.name === prefixed?.[1]);
      if (app && prefixed?.[2]?.trim()) lastOutput.set(app.name, prefixed[2].trim().slice(0, 200));
    },
    outcome,
  };
}

/** One line for every app that could not start, its reasons shared when they are the same. */
export function describeFailures(failures: readonly StartFailure[]): string {
  const byReason = new Map<string, string[]>();
  for (const { app, reason } of failures)
    byReason.set(reason, [...(byReason.get(reason) ?? []), app]);
  return [...byReason]
    .map(([reason, apps]) => `${listed(apps)} cannot start: ${reason}`)
    .join('; ');
}

function listed(names: readonly string[]): string {
  return names.length < 2
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    // Not listening yet: tsx is still compiling the app.
    return false;
  }
}
