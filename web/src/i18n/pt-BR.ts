import type { Catalogue } from "./en";

// Started: keys not here fall back to English until translated.
const ptBR: Catalogue = {
  "nav.home": "Grupos",
  "nav.settings": "Configurações",
  "signIn.title": "Entrar",
  "signIn.email": "E-mail",
  "signIn.submit": "Entrar",
  "home.title": "Seus grupos",
  "group.expenses": "Despesas",
  "group.balances": "Saldos",
  "group.addExpense": "Adicionar despesa",
  "expense.save": "Salvar",
};
export default ptBR;
