import { useState } from "preact/hooks";
import type { Transfer } from "../api/client";
import { money, t } from "../i18n";
import type { GroupState } from "../lib/db";
import { enqueue } from "../lib/outbox";
import { Alert, Back, Heading, useAction } from "./parts";
import { names, useGroup } from "./Group";
import { Qr } from "./Qr";

const METHOD_NAMES: Record<string, string> = {
  PAYPAL: "PayPal", VENMO: "Venmo", REVOLUT: "Revolut", MONZO: "Monzo", UPI: "UPI", SEPA: "SEPA",
};

export function SettleUp({ groupId }: { groupId: string }) {
  const [state, error] = useGroup(groupId);
  if (!state?.balances) return <section><Heading>{t("common.loading")}</Heading><Alert message={error} /></section>;
  return (
    <section>
      <Back to={`/groups/${groupId}/balances`} />
      <Heading>{t("settle.title")}</Heading>
      {state.balances.transfers.length === 0 && <p>{t("balances.noTransfers")}</p>}
      <ul class="cards">
        {state.balances.transfers.map((x) => (
          <TransferCard key={`${x.fromParticipantId}-${x.toParticipantId}`} state={state} transfer={x} />
        ))}
      </ul>
    </section>
  );
}

function TransferCard({ state, transfer }: { state: GroupState; transfer: Transfer }) {
  const who = names(state);
  const currency = state.balances!.currency;
  const from = who.get(transfer.fromParticipantId) ?? "?";
  const to = who.get(transfer.toParticipantId) ?? "?";
  const amount = money(transfer.amount, currency);
  const [done, setDone] = useState(false);
  const [error, busy, run] = useAction();
  const record = () => run(async () => {
    await enqueue({
      groupId: state.groupId, method: "POST", path: `/groups/${state.groupId}/settlements`,
      body: { payerId: transfer.fromParticipantId, payeeId: transfer.toParticipantId, amount: transfer.amount },
      label: t("balances.transfer", { from, to, amount }),
    });
    setDone(true);
  });
  const methods = transfer.payTo ?? [];
  return (
    <li class="card">
      <h2>{t("balances.transfer", { from, to, amount })}</h2>
      {methods.length === 0 ? <p class="muted">{t("settle.noMethods", { name: to })}</p> : (
        <div>
          <p>{t("settle.payWith")}</p>
          <ul class="methods">
            {methods.map((m) => (
              <li key={m.type}>
                {m.url && <a href={m.url} rel="noopener noreferrer" target="_blank">{METHOD_NAMES[m.type] ?? m.type}</a>}
                {m.epcQr && <Qr text={m.epcQr} label={t("settle.qr", { amount, name: to })} />}
              </li>
            ))}
          </ul>
        </div>
      )}
      <Alert message={error} />
      {done ? <p role="status">{t("settle.recorded")}</p>
        : <button type="button" class="primary" onClick={record} disabled={busy}>{t("settle.record")}</button>}
    </li>
  );
}
