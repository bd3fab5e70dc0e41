import type { Catalogue } from "./en";

// Started: keys not here fall back to English until translated.
const it: Catalogue = {
  "nav.home": "Gruppi",
  "nav.settings": "Impostazioni",
  "signIn.title": "Accedi",
  "signIn.email": "E-mail",
  "signIn.submit": "Accedi",
  "home.title": "I tuoi gruppi",
  "group.expenses": "Spese",
  "group.balances": "Saldi",
  "group.addExpense": "Aggiungi spesa",
  "expense.save": "Salva",
};
export default it;
