import type { Catalogue } from "./en";

// Started: keys not here fall back to English until translated.
const fr: Catalogue = {
  "nav.home": "Groupes",
  "nav.settings": "Paramètres",
  "signIn.title": "Connexion",
  "signIn.email": "E-mail",
  "signIn.submit": "Se connecter",
  "home.title": "Vos groupes",
  "group.expenses": "Dépenses",
  "group.balances": "Soldes",
  "group.addExpense": "Ajouter une dépense",
  "expense.save": "Enregistrer",
};
export default fr;
