import type { ApiError } from '@erp/sdk';
import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import type { Outcome } from './client';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** Loads again (after a change), keeping the current data on screen meanwhile. */
  reload(): void;
}

/**
 * Runs `load` when `deps` change and on `reload()`; an answer that arrives after a newer
 * request started (or after unmount) is dropped, so a slow page never overwrites a fast one.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<Outcome<T>>,
  deps: DependencyList,
): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    loadRef.current(controller.signal).then((outcome) => {
      if (controller.signal.aborted) return;
      setState(
        outcome.error
          ? { error: outcome.error, loading: false }
          : { data: outcome.data, loading: false },
      );
    });
    return () => controller.abort();
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
