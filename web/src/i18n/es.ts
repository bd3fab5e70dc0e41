import type { Catalogue } from "./en";

// Started: keys not here fall back to English until translated.
const es: Catalogue = {
  "nav.home": "Grupos",
  "nav.settings": "Ajustes",
  "signIn.title": "Iniciar sesión",
  "signIn.email": "Correo electrónico",
  "signIn.submit": "Entrar",
  "home.title": "Tus grupos",
  "group.expenses": "Gastos",
  "group.balances": "Saldos",
  "group.addExpense": "Añadir gasto",
  "expense.save": "Guardar",
};
export default es;
