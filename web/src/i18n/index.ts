import { IntlMessageFormat } from "intl-messageformat";
import en, { type Catalogue, type MessageKey } from "./en";
import { formatMoney } from "../lib/money";

// The languages the server supports (api.md "E-mail and language"); en is bundled, the rest
// load on demand so the first screen carries one catalogue.
export const LOCALES = ["en", "de", "fr", "es", "it", "pt-BR", "nl"] as const;
export type Locale = (typeof LOCALES)[number];
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English", de: "Deutsch", fr: "Français", es: "Español", it: "Italiano",
  "pt-BR": "Português (Brasil)", nl: "Nederlands",
};
const LOADERS: Record<Exclude<Locale, "en">, () => Promise<{ default: Catalogue }>> = {
  de: () => import("./de"), fr: () => import("./fr"), es: () => import("./es"),
  it: () => import("./it"), "pt-BR": () => import("./pt-BR"), nl: () => import("./nl"),
};
const CHOSEN = "tailspend.locale";

let locale: Locale = "en";
let catalogue: Catalogue = {};
const compiled = new Map<string, IntlMessageFormat>();
const listeners = new Set<() => void>();

/** The first of the browser's languages we speak ("de-AT" -> de, "pt" -> pt-BR), else en. */
export function negotiate(wanted: readonly string[]): Locale {
  for (const tag of wanted) {
    const exact = LOCALES.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = tag.split("-")[0].toLowerCase();
    const byLanguage = LOCALES.find((l) => l.split("-")[0].toLowerCase() === base);
    if (byLanguage) return byLanguage;
  }
  return "en";
}

export function chosenLocale(): Locale | null {
  const saved = localStorage.getItem(CHOSEN);
  return saved && (LOCALES as readonly string[]).includes(saved) ? (saved as Locale) : null;
}

/** `next` is the person's choice on this device (kept; null: none); `fallback` what applies
 * without one (the profile's language), else the browser's languages. */
export async function setLocale(next: Locale | null, fallback?: Locale): Promise<void> {
  if (next) localStorage.setItem(CHOSEN, next);
  else localStorage.removeItem(CHOSEN);
  const target = next ?? fallback ?? negotiate(navigator.languages);
  catalogue = target === "en" ? {} : (await LOADERS[target]()).default;
  locale = target;
  compiled.clear();
  document.documentElement.lang = target;
  listeners.forEach((listener) => listener());
}

export function currentLocale(): Locale {
  return locale;
}

export function onLocaleChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function t(key: MessageKey, values?: Record<string, string | number>): string {
  let format = compiled.get(key);
  if (!format) {
    format = new IntlMessageFormat(catalogue[key] ?? en[key], locale);
    compiled.set(key, format);
  }
  return String(format.format(values));
}

export function money(minor: number, currency: string): string {
  return formatMoney(minor, currency, locale);
}
