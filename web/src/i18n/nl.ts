import type { Catalogue } from "./en";

// Started: keys not here fall back to English until translated.
const nl: Catalogue = {
  "nav.home": "Groepen",
  "nav.settings": "Instellingen",
  "signIn.title": "Inloggen",
  "signIn.email": "E-mail",
  "signIn.submit": "Inloggen",
  "home.title": "Je groepen",
  "group.expenses": "Uitgaven",
  "group.balances": "Saldi",
  "group.addExpense": "Uitgave toevoegen",
  "expense.save": "Opslaan",
};
export default nl;
