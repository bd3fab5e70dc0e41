import { useId, useState } from "preact/hooks";
import { api, must, type ExpenseCreate, type Schemas } from "../api/client";
import { money, t } from "../i18n";
import { refreshGroup } from "../lib/groups";
import { navigate } from "../lib/router";
import { Alert, Back, Field, Heading, useAction } from "./parts";
import { useGroup } from "./Group";

// Receipt capture (api.md "Receipts"): a photo taken or picked → a presigned POST straight
// to the bucket → complete (the server checks and cleans the image) → scan → the draft,
// which the person checks and confirms into an expense. Online only: the file goes to the
// bucket, not through the outbox. Loaded only when this screen opens.

type Receipt = Schemas["Receipt"];
type Scan = Schemas["Scan"];
type Step = "pick" | "uploading" | "processing" | "scanning" | "draft";

const TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "application/pdf"] as const;
type ReceiptType = (typeof TYPES)[number];
const POLL_MS = 700;
const POLL_LIMIT_MS = 120_000;

function wait(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** The receipt read again until `ready` says so (or two minutes pass). */
async function pollReceipt(groupId: string, receiptId: string, ready: (r: Receipt) => boolean): Promise<Receipt> {
  const until = Date.now() + POLL_LIMIT_MS;
  for (;;) {
    const receipt = must(await api.GET("/groups/{groupId}/receipts/{receiptId}", {
      params: { path: { groupId, receiptId } },
    }));
    if (ready(receipt)) return receipt;
    if (Date.now() > until) throw new Error(t("receipt.tooSlow"));
    await wait(POLL_MS);
  }
}

async function upload(groupId: string, file: File, onStep: (step: Step) => void): Promise<Receipt> {
  const contentType = (TYPES as readonly string[]).includes(file.type) ? file.type as ReceiptType : null;
  if (!contentType) throw new Error(t("receipt.badType"));
  onStep("uploading");
  const made = must(await api.POST("/groups/{groupId}/receipts", {
    params: { path: { groupId } }, body: { contentType, size: file.size },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  }));
  // The presigned POST: its fields first, the file last (S3 ignores fields after the file).
  const form = new FormData();
  for (const [name, value] of Object.entries(made.upload.fields as Record<string, string>)) form.append(name, value);
  form.append("file", file);
  const sent = await fetch(made.upload.url, { method: "POST", body: form });
  if (!sent.ok) throw new Error(t("receipt.uploadFailed", { status: sent.status }));
  onStep("processing");
  must(await api.POST("/groups/{groupId}/receipts/{receiptId}/complete", {
    params: { path: { groupId, receiptId: made.receiptId } },
  }));
  const ready = await pollReceipt(groupId, made.receiptId, (r) => r.status === "READY" || r.status === "FAILED");
  if (ready.status === "FAILED") throw new Error(ready.reasonMessage ?? ready.reason ?? t("receipt.unreadable"));
  onStep("scanning");
  must(await api.POST("/groups/{groupId}/receipts/{receiptId}/scan", {
    params: { path: { groupId, receiptId: made.receiptId } },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  }));
  return pollReceipt(groupId, made.receiptId, (r) => (r.scan as Scan | null)?.status !== "PENDING" && !!r.scan);
}

export function ReceiptCapture({ groupId }: { groupId: string }) {
  const [state, loadError] = useGroup(groupId);
  const [step, setStep] = useState<Step>("pick");
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [error, busy, run] = useAction();
  const inputId = useId();
  const choose = (event: Event) => {
    const file = (event.target as HTMLInputElement).files?.[0];
    if (!file) return;
    run(async () => {
      try {
        setReceipt(await upload(groupId, file, setStep));
        setStep("draft");
      } catch (e) {
        setStep("pick");
        throw e;
      }
    });
  };
  const working = step !== "pick" && step !== "draft";
  return (
    <section>
      <Back to={`/groups/${groupId}`} />
      <Heading>{t("receipt.title")}</Heading>
      <Alert message={loadError ?? error} />
      {step === "pick" && (
        <div class="field">
          <label for={inputId}>{t("receipt.photo")}</label>
          <input id={inputId} type="file" accept="image/*,application/pdf" capture="environment"
                 onChange={choose} disabled={busy} />
          <p class="hint">{t("receipt.photoHint")}</p>
        </div>
      )}
      {working && <p role="status">{t(`receipt.step.${step}` as "receipt.step.uploading")}</p>}
      {step === "draft" && receipt && state && <Draft groupId={groupId} receipt={receipt}
                                                      currency={state.group.currency} />}
    </section>
  );
}

function Draft({ groupId, receipt, currency }: { groupId: string; receipt: Receipt; currency: string }) {
  const scan = receipt.scan as Scan;
  const draft = scan.draft as (ExpenseCreate & { currency?: string }) | null;
  const [description, setDescription] = useState(draft?.description ?? scan.merchant ?? "");
  const [date, setDate] = useState(draft?.date ?? scan.date ?? new Date().toISOString().slice(0, 10));
  const [error, busy, run] = useAction();
  const shownIn = draft?.currency ?? scan.currency ?? currency;
  const confirm = (event: Event) => {
    event.preventDefault();
    run(async () => {
      must(await api.POST("/groups/{groupId}/receipts/{receiptId}/confirm", {
        params: { path: { groupId, receiptId: receipt.receiptId } },
        // the draft's extras (tax, tip, discounts) go as they are; none is an empty list
        body: { expense: { ...draft!, extras: draft!.extras ?? [], description: description.trim(), date } },
        headers: { "Idempotency-Key": crypto.randomUUID() },
      }));
      await refreshGroup(groupId);
      navigate(`/groups/${groupId}`);
    });
  };
  return (
    <div>
      {receipt.thumbnailUrl && <img class="thumb" src={receipt.thumbnailUrl} alt={t("receipt.thumbnail")} />}
      {!draft ? <p role="alert">{t("receipt.noTotal")}</p> : (
        <form onSubmit={confirm}>
          <h2>{t("receipt.draft")}</h2>
          <Field label={t("expense.description")} value={description} onInput={setDescription} required />
          <Field label={t("expense.date")} type="date" value={date} onInput={setDate} required />
          <p class="total">{t("expense.total", { amount: money(draft.amount ?? scan.total ?? 0, shownIn) })}</p>
          {scan.items.length > 0 && (
            <ul class="list" aria-label={t("receipt.lines")}>
              {scan.items.map((item, n) => (
                <li key={n}><span class="title">{item.name}</span>
                  <span class="amount">{money(item.amount, scan.currency ?? shownIn)}</span></li>
              ))}
            </ul>
          )}
          <p class="hint">{t("receipt.editLater")}</p>
          <Alert message={error} />
          <button type="submit" class="primary" disabled={busy}>{t("receipt.confirm")}</button>
        </form>
      )}
    </div>
  );
}
