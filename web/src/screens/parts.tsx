import type { ComponentChildren } from "preact";
import { useEffect, useId, useState } from "preact/hooks";
import { ApiError, isNetworkFailure } from "../api/client";
import { t } from "../i18n";
import { linkProps } from "../lib/router";

export function Heading({ children }: { children: ComponentChildren }) {
  // tabIndex -1: the app moves focus here on each new screen (App.tsx).
  return <h1 tabIndex={-1}>{children}</h1>;
}

export function Back({ to }: { to: string }) {
  return <a class="back" {...linkProps(to)}>← {t("common.back")}</a>;
}

type FieldProps = {
  label: string; value: string; onInput: (value: string) => void; type?: string;
  required?: boolean; autoComplete?: string; inputMode?: "decimal" | "numeric" | "email" | "text";
  hint?: string; pattern?: string; list?: string;
};

export function Field({ label, value, onInput, type = "text", hint, ...rest }: FieldProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type={type as "text"} value={value} aria-describedby={hint ? `${id}-hint` : undefined}
             onInput={(e) => onInput((e.target as HTMLInputElement).value)} {...rest} />
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  );
}

export function Select({ label, value, onChange, options }: {
  label: string; value: string; onChange: (value: string) => void;
  options: Array<[string, string]>;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
      </select>
    </div>
  );
}

export function Alert({ message }: { message: string | null }) {
  return message ? <p class="alert" role="alert">{message}</p> : null;
}

export function describe(error: unknown): string {
  if (isNetworkFailure(error)) return t("error.offline");
  if (error instanceof ApiError) return t("error.generic", { message: error.message });
  return t("error.generic", { message: String((error as Error)?.message ?? error) });
}

/** Run an async action from an event handler: its failure becomes the screen's alert, never
 * an unhandled rejection. */
export function useAction(): [string | null, boolean, (work: () => Promise<void>) => void] {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<void>) => {
    setError(null);
    setBusy(true);
    work().catch((e) => setError(describe(e))).finally(() => setBusy(false));
  };
  return [error, busy, run];
}

/** Start an async load when `deps` change; a failure lands in the returned message. */
export function useLoad(work: () => Promise<void>, deps: unknown[]): string | null {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setError(null);
    work().catch((e) => setError(describe(e)));
  }, deps);
  return error;
}

export function currencies(): string[] {
  const all = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] })
    .supportedValuesOf?.("currency");
  return all?.length ? all : ["EUR", "USD", "GBP", "CHF"];
}

/** A screen's module loaded on first use (kept out of the first screen's JavaScript). */
export function useModule<T>(load: () => Promise<T>): [T | null, string | null] {
  const [module, setModule] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    load().then((loaded) => setModule(() => loaded)).catch((e) => setError(describe(e)));
  }, []);
  return [module, error];
}
