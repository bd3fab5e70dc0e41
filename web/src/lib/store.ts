import { useEffect, useState } from "preact/hooks";

/** A value screens re-render on: get, set, subscribe. Small enough not to need a library. */
export class Store<T> {
  private listeners = new Set<(value: T) => void>();
  constructor(private value: T) {}
  get(): T {
    return this.value;
  }
  set(next: T): void {
    this.value = next;
    this.listeners.forEach((listener) => listener(next));
  }
  update(change: (value: T) => T): void {
    this.set(change(this.value));
  }
  subscribe(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(store.get());
  useEffect(() => {
    setValue(store.get());
    return store.subscribe(setValue);
  }, [store]);
  return value;
}
