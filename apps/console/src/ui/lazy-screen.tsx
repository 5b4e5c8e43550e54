import { type ComponentType, lazy } from 'react';

/** A screen whose code loads on demand, with `preload()` to fetch it ahead of need. */
export type LazyScreen = ComponentType & { preload(): Promise<unknown> };

/**
 * Like `React.lazy`, but once the code is here (preloaded, or shown before) the screen renders
 * at once: `lazy` alone suspends on every first render, even of a module already loaded, and a
 * suspended page waits out React's fallback throttle (300 ms) before it shows.
 */
export function lazyScreen<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): LazyScreen {
  let loaded: ComponentType | undefined;
  const preload = () =>
    load().then((module) => {
      const screen: ComponentType = module[name];
      loaded = screen;
      return { default: screen };
    });
  const Suspending = lazy(preload);
  function Screen() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Suspending />;
  }
  return Object.assign(Screen, { preload });
}
