"""The words receipts label their lines with, in the languages we read (English, German,
French, Spanish, Italian, Dutch, Portuguese, the Nordic ones, Polish, Czech, Hungarian,
Turkish, Russian, Ukrainian, Malay, Indonesian, Vietnamese, Thai, Japanese, Chinese, Korean). Matched on folded text (lower case, no accents): see text.keyword_pattern."""
from __future__ import annotations

from app.receipts.scan.text import keyword_pattern

# What is left to pay: preferred over a plain "total".
TOTAL_STRONG = keyword_pattern("""
grand total|total due|amount due|balance due|total to pay|amount to pay|total payable|
total amount|total a pagar|importe total|total a payer|net a payer|a payer|montant du|
zu zahlen|gesamtbetrag|endbetrag|gesamtsumme|endsumme|rechnungsbetrag|summe eur|
te betalen|totaal te betalen|te voldoen|da pagare|totale complessivo|totale da pagare|
importo dovuto|total ttc|att betala|at betale|a pagar|valor a pagar|do zaplaty|
k uhrade|celkem k uhrade|fizetendo|genel toplam|odenecek|к оплате|итого к оплате|
до сплати|total bayar|jumlah bayar|jumlah perlu dibayar|tong thanh toan|tong cong tien|
รวมทั้งสิ้น|ยอดสุทธิ|att betala totalt|totalt att betala|totalt a betale|samtals til greidslu|결제금액|받을금액|총액|합계금액|合計金額|総合計|お会計|お支払金額|ご請求額|合计金额|应付|实付|总计
""".replace("\n", "").split("|"))
TOTAL = keyword_pattern("""
total|totals|summe|gesamt|betrag|totale|totaal|importe|montant|合計|合 計|合计|sum|suma|
razem|celkem|toplam|i alt|yhteensa|totalt|summa|totaal bedrag|bedrag|amount|합계|
osszesen|osszeg|итого|сумма|всего|разом|сума|всього|jumlah|tong cong|tong|รวม|ยอดรวม|
samtals|
""".replace("\n", "").split("|")[:-1])
SUBTOTAL = keyword_pattern("""
subtotal|sub total|sub-total|zwischensumme|sous-total|sous total|subtotale|subtotaal|
小計|小计|total ht|montant ht|netto|net amount|net total|total excl|excl|base imponible|
imponibile|summe netto|nettobetrag|total hors taxe|hors taxe|zwischentotal|delsumma|delsum|
mellemsum|mezisoucet|reszosszeg|ara toplam|suma czesciowa|jumlah kecil|подытог|промежуточный итог|
проміжна сума|tam tinh|ยอดก่อนภาษี|소계
""".replace("\n", "").split("|"))
TAX = keyword_pattern("""
tax|taxes|vat|mwst|ust|tva|iva|btw|gst|hst|pst|steuer|mehrwertsteuer|impuesto|imposta|
moms|mva|alv|dph|kdv|cgst|sgst|igst|ptu|afa|ppn|sst|vsk|thue|thue gtgt|ндс|пдв|
ภาษี|ภาษีมูลค่าเพิ่ม|부가세|세액|税|消費税|内税|外税|税額|税额
""".replace("\n", "").split("|"))
# "Total incl. VAT" is still the total.
TAX_INCLUDED = keyword_pattern("""
incl|inkl|inc|including|included|incluido|incluye|incl iva|iva incluido|inclus|inclusa|
compris|ttc|inbegrepen|inclusief|incluso|税込|内税|含税
""".replace("\n", "").split("|"))
CHANGE = keyword_pattern("""
change|change due|your change|ruckgeld|riickgeld|wechselgeld|zuruck|rendu|monnaie|a rendre|cambio|
vuelto|vueltas|devolucion|resto|wisselgeld|terug|troco|vaxel|veksel|reszta|お釣|おつり|
釣銭|釣り|找零|거스름돈|visszajaro|para ustu|сдача|решта|baki|kembali|kembalian|
tien thoi|tien thua|เงินทอน|vraceno|vekslepenger|byttepenge|vaxel|reszta
""".replace("\n", "").split("|"))
TENDER = keyword_pattern("""
cash|tendered|amount tendered|bar|gegeben|bar gegeben|especes|efectivo|entregado|contanti|
contante|contant|pinnen|pin|card|credit card|debit|carte|carte bancaire|cb|tarjeta|carta|
kaart|visa|mastercard|master card|amex|maestro|girocard|ec-karte|ec karte|kreditkarte|
paid|payment|bezahlt|paye|pagado|pagato|betaald|dinheiro|kontant|gotowka|hotove|
お預り|お預かり|預り|現金|クレジット|支払|现金|刷卡|현금|카드|신용카드|keszpenz|nakit|
наличные|готівка|tunai|tien mat|เงินสด|hotove|gotowka|kontant|kontanter
""".replace("\n", "").split("|"))
DISCOUNT = keyword_pattern("""
discount|rabatt|nachlass|remise|reduction|descuento|sconto|korting|desconto|rabat|
割引|値引|coupon|gutschein|bon de reduction|savings|you saved|promo|aktion|sleva|
kedvezmeny|indirim|скидка|знижка|diskon|potongan|giam gia|ส่วนลด|할인|折扣|优惠
""".replace("\n", "").split("|"))
# A tip and a service charge: shared among the diners in proportion, as tax is.
TIP = keyword_pattern("""
tip|tips|gratuity|trinkgeld|pourboire|propina|mancia|fooi|gorjeta|dricks|drikkepenge|
napiwek|spropitne|borravalo|bahsis|чаевые|чайові|tien boa|チップ|小费|팁
""".replace("\n", "").split("|"))
SERVICE = keyword_pattern("""
service|service charge|servicio|cargo por servicio|servizio|frais de service|taxa de servico|
servicegebuhr|serviceavgift|servicegebyr|serwis|oplata serwisowa|szervizdij|servis ucreti|
обслуживание|обслуговування|caj perkhidmatan|biaya layanan|phi dich vu|ค่าบริการ|サービス料|
服务费|봉사료
""".replace("\n", "").split("|"))
# Header lines that are not the merchant's name.
NOT_MERCHANT = keyword_pattern("""
receipt|sales receipt|invoice|tax invoice|kassenbon|kassenbeleg|beleg|quittung|rechnung|
facture|ticket|ticket de caisse|factura|factura simplificada|ricevuta|scontrino|
documento commerciale|kassabon|bon nr|bonnetje|kvittering|kvitto|paragon|uctenka|
領収書|領収証|レシート|收据|发票|welcome|willkommen|bienvenue|bienvenido|bienvenidos|
benvenuti|welkom|thank you|danke|merci|gracias|grazie|bedankt|いらっしゃいませ|欢迎光临|
tel|phone|telefon|telephone|telefono|fax|www|http|https|vat no|vat reg|ust-id|ust-idnr|
steuernr|st-nr|siret|siren|nif|cif|p iva|partita iva|kvk|btw-nr|btw nr|cashier|kasse|
caisse|cajero|cassa|kassa|table|tisch|order|date|datum|fecha|data|store|filiale|
""".replace("\n", "").split("|")[:-1])
ADDRESS = keyword_pattern("""
street|st|road|rd|avenue|ave|blvd|lane|drive|str|strasse|straße|platz|gasse|weg|allee|
rue|boulevard|bd|avenida|calle|c/|plaza|via|viale|piazza|corso|laan|plein|straat|gracht|
丁目|番地|路|号
""".replace("\n", "").split("|"))
