// Money is integer minor units end to end (api.md): these turn them into text for a locale
// and read what a person typed back into minor units, with no floating point on the way in.

export function fractionDigits(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
    .maximumFractionDigits ?? 2;
}

export function formatMoney(minor: number, currency: string, locale: string): string {
  const digits = fractionDigits(currency);
  // minor / 10^digits is exact to display for any amount the API allows (<= 10^11).
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 10 ** digits);
}

/** "42,50", "42.50", "1 234,5" -> 4250, 4250, 123450 (EUR); null when it is not an amount. */
export function parseMoney(text: string, currency: string): number | null {
  const digits = fractionDigits(currency);
  const cleaned = text.replace(/[\s\u00a0\u202f']/g, "");
  const match = /^(\d{1,12})(?:[.,](\d*))?$/.exec(cleaned);
  if (!match) return null;
  const [, whole, fraction = ""] = match;
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number((fraction + "0".repeat(digits)).slice(0, digits) || "0");
}

/** Minor units -> the plain decimal text an input field starts with ("42.50"). */
export function minorToInput(minor: number, currency: string): string {
  const digits = fractionDigits(currency);
  if (!digits) return String(minor);
  const text = String(Math.abs(minor)).padStart(digits + 1, "0");
  return `${minor < 0 ? "-" : ""}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** "33.33" percent -> 3333 basis points; null when not a percentage with <= 2 decimals. */
export function parsePercent(text: string): number | null {
  const match = /^(\d{1,3})(?:[.,](\d{0,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number(((match[2] ?? "") + "00").slice(0, 2));
}
