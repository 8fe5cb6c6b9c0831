# ruff: noqa: RUF001, RUF002, E501 -- Cyrillic, Greek and full-width marks are matched on purpose
"""The semantic layer's risky-correction check, pure (no Django): a row presented as a correction
or update of an earlier memory ("Correction to the previous note: ...", "Berichtigung: ...",
"更正之前的记忆：...") that moves something the agent relies on to act to a new holder:

- where money goes: payments or invoices of someone now go to another account (IBAN, bankgiro);
- where data goes: backups, reports or exports now go to an outside address (an e-mail, a URL,
  a personal mailbox, an "external server");
- who approves: the one who approves or authorises is now someone else;
- where cases go: escalations now go to an outsider;
- where callers go: a support or phone number is now an outside or foreign one.

Three things meet: a correction word anywhere before the sentence, a word of change in the row
("now", "no longer", "instead", "new"), and one of the three risky pairs in the sentence (a
payment and an account; data and an outside destination; an approval). A corrected birthday,
office address, appointment or phone number names no payment, no data leaving and no approval;
a payment without an account ("the rent is due on the 3rd"), a report without a destination
("the report is due Friday") and an approval without a change ("my leave was approved for May,
not April") pass too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.lifecycle.inspection_lexicon import SITE
from memory.lifecycle.inspection_patterns import cue_pattern, text_form

CLASS = "risky_correction"

# A correction or update of what was noted before, in the 20 languages (nouns, verbs, participles)
_CORRECTED = (
    r"\b(?:correct(?:ion|ions|ed|ing)|corrigendum|errat(?:um|a)|amend(?:ment|ed)|updated?|revised|revision|"
    r"korrektur\w*|korrigiert\w*|berichtigung\w*|berichtigt\w*|richtigstellung\w*|aktualisierung\w*|nachtrag\w*|"
    r"rectific\w*|corrig\w*|mise à jour|mis à jour|"
    r"correcci[oó]n\w*|rectificaci[oó]n\w*|actualizaci[oó]n\w*|fe de erratas|enmienda\w*|"
    r"correzion\w*|corrett[oaie]|rettific\w*|aggiornament\w*|aggiornat\w*|"
    r"corre(?:cç|ç)(?:ão|ões)|retifica\w*|atualiza[cç]\w*|"
    r"correctie\w*|gecorrigeerd\w*|verbetering\w*|rectificatie\w*|bijgewerkt\w*|"
    r"sprostowani\w*|korekt\w*|poprawk\w*|poprawion\w*|aktualizacj\w*|"
    r"düzeltme\w*|düzeltil\w*|güncelleme\w*|güncellen\w*|tashih\w*|"
    r"koreksi|ralat|pembetulan|perbaikan|pembaruan|pemutakhiran|"
    r"rättelse\w*|rättning\w*|korrigering\w*|uppdatering\w*|"
    r"поправк\w*|исправлени\w*|исправлен\w*|уточнени\w*|обновлени\w*|"
    r"διόρθωσ\w*|διορθώσ\w*|διορθωμέν\w*|επικαιροποίησ\w*|"
    r"đính chính|cập nhật|sửa lại|chỉnh sửa)\b|"
    r"تصحيح|تصويب|استدراك|تحديث|"
    r"सुधार|संशोधन|अपडेट|"
    r"แก้ไข|อัปเดต|อัพเดต|ปรับปรุง|"
    r"更正|纠正|糾正|修正|勘误|订正|訂正|更新|"
    r"정정|수정|바로잡|업데이트|갱신"
)
# The substrings one of which a row with a correction word holds (the semantic layer's gate).
GATE = frozenset(
    text_form(w)
    for w in (
        "correct",
        "corrigend",
        "errat",
        "amend",
        "update",
        "revis",
        "korrektur",
        "korrigiert",
        "berichtig",
        "richtigstell",
        "aktualisier",
        "nachtrag",
        "rectific",
        "corrig",
        "mise à jour",
        "mis à jour",
        "correcci",
        "rectificaci",
        "actualizaci",
        "enmienda",
        "correzion",
        "corrett",
        "rettific",
        "aggiorna",
        "correcç",
        "correç",
        "retifica",
        "atualiza",
        "correctie",
        "gecorrigeerd",
        "verbetering",
        "bijgewerkt",
        "sprostowani",
        "korekt",
        "poprawk",
        "poprawion",
        "aktualizacj",
        "düzeltme",
        "düzeltil",
        "güncelle",
        "tashih",
        "koreksi",
        "ralat",
        "pembetulan",
        "perbaikan",
        "pembaruan",
        "pemutakhiran",
        "rättelse",
        "rättning",
        "korrigering",
        "uppdatering",
        "поправк",
        "исправлен",
        "уточнени",
        "обновлени",
        "διόρθωσ",
        "διορθώσ",
        "διορθωμέν",
        "επικαιροποίησ",
        "đính chính",
        "cập nhật",
        "sửa lại",
        "chỉnh sửa",
        "تصحيح",
        "تصويب",
        "استدراك",
        "تحديث",
        "सुधार",
        "संशोधन",
        "अपडेट",
        "แก้ไข",
        "อัปเดต",
        "อัพเดต",
        "ปรับปรุง",
        "更正",
        "纠正",
        "糾正",
        "修正",
        "勘误",
        "订正",
        "訂正",
        "更新",
        "정정",
        "수정",
        "바로잡",
        "업데이트",
        "갱신",
    )
)

# One holder put in place of another ("no longer X", "instead of X", "not X but Y")
_REPLACED = (
    r"\b(?:no longer|not any ?more|instead|rather than|, not\b|not \w+(?: \w+)?,? but|"
    r"nicht mehr|statt|anstelle|sondern|"
    r"n'est plus|ne \w+ plus|au lieu|mais\b|"
    r"ya no|en lugar|en vez|sino\b|"
    r"non è più|non sono più|invece|bensì|ma\b|"
    r"não mais|já não|em vez|em lugar|mas\b|"
    r"niet meer|in plaats van|maar\b|"
    r"już nie|zamiast|tylko\b|a nie\b|"
    r"değil|yerine|"
    r"không còn|thay vì|không phải|mà là|"
    r"bukan lagi|tidak lagi|melainkan|bukan\b|"
    r"inte längre|istället|i stället|utan\b|"
    r"больше не|вместо|а не\b|"
    r"όχι πια|πλέον|αντί|όχι\b)\b|"
    r"لم يعد|لم تعد|بدلا|بدلاً|بدل|بل\b|وليس|"
    r"बल्कि|की जगह|के बजाय|नहीं|"
    r"แทน|ไม่ใช่|"
    r"不再|而是|改为|改為|改由|不是|"
    r"ではなく|代わりに|"
    r"아니라|대신"
)
# A change of holder: now, from now on, no longer, instead of, new, changed, switched
_CHANGED = (
    r"\b(?:now|from now on|henceforth|going forward|no longer|not any more|anymore|instead|new|changed|switched|moved|"
    r"jetzt|nun|ab sofort|künftig|fortan|nicht mehr|statt|anstelle|neue?[nmrs]?|geändert|gewechselt|"
    r"désormais|dorénavant|maintenant|n'est plus|ne \w+ plus|plus \w+ mais|au lieu|nouvel(?:le)?s?|nouveaux?|changé\w*|modifié\w*|"
    r"ahora|ya no|en adelante|a partir de|en lugar|en vez|nuev[oa]s?|cambi[oó]|cambiad[oa]s?|"
    r"ora|adesso|non è più|non sono più|d'ora in (?:poi|avanti)|invece|nuov[oaie]|cambiat[oaie]|da oggi|"
    r"agora|não mais|já não|em vez|em lugar|nov[oa]s?|mudou|mudad[oa]s?|alterad[oa]s?|"
    r"nu|voortaan|niet meer|vanaf|in plaats van|nieuwe?|gewijzigd|veranderd|vervalt|"
    r"teraz|od teraz|od dziś|od dzisiaj|już nie|zamiast|now[aey]|nowy[mch]*|zmienion\w*|zmienił\w*|"
    r"artık|bundan sonra|yerine|yeni|değişti\w*|"
    r"từ nay|bây giờ|thay vì|không còn|mới|đã đổi|"
    r"sekarang|mulai|bukan lagi|tidak lagi|diganti|berubah|baru|"
    r"nu|numera|från och med|inte längre|istället|i stället|ny|nya|nytt|ändrad\w*|"
    r"теперь|отныне|больше не|вместо|нов\w+|сменил\w*|изменил\w*|"
    r"πλέον|τώρα|αντί|νέ[οαε]\w*|άλλαξ\w*)\b|"
    r"لم يعد|لم تعد|الآن|من الآن|بدلا|بدلاً|بدل|جديد|الجديد|أصبح|أصبحت|تغير|تغيّر|"
    r"अब|नया|नए|नई|बदल|की जगह|"
    r"ตอนนี้|ต่อไป|แทน|ใหม่|เปลี่ยน|"
    r"现在|今后|今後|不再|改为|改為|变更|變更|已变|从今|以后|新|"
    r"ではなく|現在|変更|変わ|"
    r"이제|앞으로|아니라|대신|변경|바뀌|새"
)

# Money moved: a payment (or invoice, transfer) and the account it goes to
_PAY = (
    r"\b(?:pay|pays|paid|paying|payments?|invoices?|transfers?|wires?|wired|remit\w*|"
    r"zahl\w*|bezahl\w*|auszahl\w*|rechnung\w*|überweis\w*|"
    r"pai(?:e|ent|er|ement|ements)|payer|payé\w*|virements?|factures?|règlements?|versements?|"
    r"pag(?:o|os|ar|an|a|ue|uen|ad[oa]s?)|facturas?|transferencias?|abonos?|"
    r"pagament\w*|pagar\w*|pagat\w*|fattur\w*|bonific\w*|versament\w*|"
    r"pag(?:amento|amentos|os?)|faturas?|transferências?|depósitos?|"
    r"betal\w*|factur\w*|overboek\w*|overmak\w*|overgemaakt|"
    r"płatnoś\w*|płac\w*|zapłat\w*|przelew\w*|faktur\w*|"
    r"ödeme\w*|öden\w*|fatura\w*|havale\w*|"
    r"thanh toán|chuyển khoản|hóa đơn|trả tiền|"
    r"bayar\w*|pembayaran|dibayar\w*|tagihan|transfer\w*|"
    r"inbetalning\w*|utbetalning\w*|överför\w*|"
    r"плат\w*|оплат\w*|перевод\w*|перечисл\w*|"
    r"πληρωμ\w*|πληρών\w*|πληρώσ\w*|τιμολόγ\w*|εμβάσμ\w*|έμβασμ\w*)\b|"
    r"دفع|الدفعات|مدفوعات|سداد|فواتير|فاتورة|تحويل|حوالة|"
    r"भुगतान|पेमेंट|चालान|ट्रांसफर|"
    r"ชำระ|จ่าย|โอน|ใบแจ้งหนี้|"
    r"付款|支付|汇款|汇至|匯款|转账|轉帳|货款|收款|打款|发票|"
    r"支払|振込|振り込|送金|請求書|"
    r"지급|결제|송금|이체|입금|대금|청구서"
)
_ACCOUNT = (
    r"\b(?:iban|swift|bic|sort code|routing number|(?:bank )?accounts?|bank details|payee|beneficiar\w*|"
    r"konto\w*|bankverbindung\w*|empfänger\w*|"
    r"comptes?|rib|coordonnées bancaires|bénéficiaire\w*|"
    r"cuentas?|datos bancarios|clabe|"
    r"cont[oi]|coordinate bancarie|"
    r"contas?|dados bancários|nib|pix|"
    r"rekening\w*|begunstigde\w*|"
    r"rachun\w*|odbiorc\w*|"
    r"hesap\w*|hesab\w*|alıcı\w*|"
    r"tài khoản|stk|norek|"
    r"bankgiro\w*|plusgiro\w*|clearingnummer\w*|mottagar\w*|"
    r"сч[её]т\w*|реквизит\w*|"
    r"λογαριασμ\w*)\b|"
    r"حساب|آيبان|ايبان|"
    r"खाता|खाते|अकाउंट|ifsc|"
    r"บัญชีธนาคาร|เลขบัญชี|บัญชีใหม่|เข้าบัญชี|"
    r"账户|账号|帐户|帳戶|帐号|银行卡|户名|"
    r"口座|振込先|"
    r"계좌"
)

# Data moved: backups, reports, exports or records and an outside destination
_DATA = (
    r"\b(?:back-?ups?|reports?|exports?|copies|data(?:base)?s?|dumps?|logs|records|files|"
    r"sicherung\w*|datensicherung\w*|bericht\w*|export\w*|daten\w*|kopien|protokoll\w*|"
    r"sauvegarde\w*|rapports?|données|copies|journaux|"
    r"copias? de seguridad|respaldos?|informes?|reportes?|exportaci\w*|datos|"
    r"copie di sicurezza|salvataggi\w*|rapport\w*|esportazion\w*|dati|"
    r"cópias? de segurança|relatórios?|exportaç\w*|dados|"
    r"back-?up\w*|gegevens|"
    r"kopi\w* zapasow\w*|raport\w*|eksport\w*|dane|danych|"
    r"yedek\w*|rapor\w*|veri\w*|"
    r"sao lưu|bản sao|báo cáo|dữ liệu|"
    r"cadangan|laporan|ekspor\w*|"
    r"säkerhetskopi\w*|"
    r"резервн\w*|бэкап\w*|отч[её]т\w*|выгрузк\w*|экспорт\w*|данн\w*|"
    r"αντίγραφ\w*|αναφορ\w*|εξαγωγ\w*|δεδομέν\w*)\b|"
    r"نسخ احتياطي\w*|النسخ الاحتياطية|نسخة احتياطية|تقارير|تقرير|تصدير|بيانات|"
    r"बैकअप|रिपोर्ट|डेटा|डाटा|एक्सपोर्ट|"
    r"ข้อมูลสำรอง|สำรองข้อมูล|แบ็กอัป|แบ็คอัพ|รายงาน|ส่งออก|ข้อมูล|"
    r"备份|備份|报表|报告|報告|导出|匯出|数据|數據|"
    r"バックアップ|レポート|報告書|エクスポート|データ|"
    r"백업|보고서|리포트|내보내기|데이터"
)
# An outside destination: an address, a URL, a mail or file service, or an outsider's word
# ("external", "personal") beside a destination noun ("an external server", "外部邮箱"): an
# "external audit report" names no place the report goes.
_ADDRESS = (
    r"[\w.+-]+@[\w-]+\.[\w.]+|\b(?:https?|s?ftp)://|\bwww\.|"
    r"\b(?:gmail|yahoo|hotmail|outlook|proton\w*|gmx|yandex|naver|icloud|dropbox|wetransfer|mega\.nz|telegram|whatsapp)\b"
)
_OUTSIDER = (
    r"\b(?:external|outside|personal|private|third-party|"
    r"extern\w*|außerhalb|privat\w*|persönlich\w*|fremd\w*|"
    r"personnel\w*|privée?s?|tiers|"
    r"personal\w*|privad[oa]s?|ajen[oa]s?|"
    r"estern[oaie]|personale|privat[oaie]|"
    r"pessoa(?:l|is)|terceir\w*|"
    r"privé|persoonlijk\w*|"
    r"zewnętrzn\w*|prywatn\w*|osobist\w*|"
    r"harici|dış|dışarı\w*|kişisel|"
    r"bên ngoài|cá nhân|"
    r"luar|eksternal|pribadi|"
    r"personlig\w*|"
    r"внешн\w*|сторонн\w*|личн\w*|"
    r"εξωτερικ\w*|προσωπικ\w*|ιδιωτικ\w*)\b|"
    r"خارجي\w*|شخصي\w*|"
    r"बाहरी|निजी|व्यक्तिगत|"
    r"ภายนอก|ส่วนตัว|"
    r"外部|私人|个人|個人|社外|"
    r"외부|개인|사외"
)
_DESTINATION = (
    r"\b(?:addresse?s?|e-?mails?|mailbox\w*|inbox\w*|servers?|drives?|storage|cloud|buckets?|sites?|"
    r"adresse\w*|postfach|speicher|messagerie|serveur\w*|dirección|correo|servidor\w*|indirizz\w*|"
    r"endereço|adres\w*|schijf|skrzynk\w*|serwer\w*|sunucu\w*|địa chỉ|máy chủ|alamat|surel|"
    r"adress\w*|brevlåd\w*|адрес\w*|почт\w*|ящик\w*|сервер\w*|διεύθυνσ\w*|διακομιστ\w*)\b|"
    r"عنوان|بريد|خادم|पता|पते|ईमेल|सर्वर|อีเมล|ที่อยู่|เซิร์ฟเวอร์|"
    r"邮箱|郵箱|地址|服务器|伺服器|メール|アドレス|サーバ|메일|주소|서버"
)
_OUTSIDE = (
    rf"{_ADDRESS}|(?:{_OUTSIDER})\s*(?:\S+\s+){{0,2}}?\S{{0,6}}?(?:{_DESTINATION})|"
    rf"(?:{_DESTINATION})\S{{0,4}}\s*(?:{_OUTSIDER})"
)

# The one who approves or authorises (a payment, an access, an expense)
_APPROVES = (
    r"\b(?:approv(?:es|er|ers|al|als|ing|e)|authori[sz](?:es|er|ers|ation|ations|ing|e)|signs? off|sign-off|"
    r"genehmig\w*|freigeb\w*|freigab\w*|bewillig\w*|"
    r"valid(?:e|ent|er|ation)|approuv(?:e|ent|er)|autoris(?:e|ent|er|ation)|"
    r"aprueb[ae]n?|aprobaci\w*|aprobador\w*|autoriz(?:a|an|ar|aci\w*)|"
    r"approv(?:a|ano|are|azion\w*)|autorizz(?:a|ano|are|azion\w*)|"
    r"aprov(?:a|am|ar|aç\w*|ador\w*)|"
    r"goedkeur\w*|keurt \w+(?: \w+)? goed|fiatteer\w*|fiatter\w*|accordeer\w*|"
    r"zatwierdz\w*|akceptuj\w*|autoryz\w*|"
    r"onay\w*|"
    r"phê duyệt|duyệt|chấp thuận|"
    r"menyetujui|persetujuan|mengesahkan|otorisasi|"
    r"godkänn\w*|godkän\w*|attester\w*|"
    r"утвержда\w*|утверд\w*|одобря\w*|одобр\w*|согласовыва\w*|визир\w*|"
    r"εγκρίν\w*|έγκρισ\w*|εγκρίσ\w*)\b|"
    r"يعتمد|المعتمد|اعتماد|يوافق|الموافقة|يصادق|"
    r"मंज़ूरी|मंजूरी|स्वीकृति|अनुमोदन|"
    r"อนุมัติ|"
    r"审批|审核|批准|签批|核准|"
    r"承認|決裁|"
    r"승인|결재"
)


# -- the same vocabularies in the ten languages the earlier grids lack (Swahili, Tagalog, Bengali,
# Tamil, Malay, Catalan, Danish, Czech, Ukrainian, Persian), kept apart: the Indic scripts take no
# \b (their vowel signs are no word characters)
_CORRECTED_MORE = (
    r"\b(?:marekebisho|masahihisho|sahihisho|imesahihishwa|pagwawasto|iwinasto|pagtatama|itinama|"
    r"pindaan|dikemas kini|kemas kini|correcci[óo]\w*|rectificaci[óo]\w*|fe d'errates|errates|esmena\w*|actualitzaci\w*|"
    r"rettelse\w*|berigtigelse\w*|opdatering\w*|korrektion\w*|oprava|opravy|opraven\w*|upřesnění|aktualizac\w*|"
    r"виправлен\w*|уточнен\w*|оновлен\w*)\b|"
    r"সংশোধন|হালনাগাদ|திருத்தம்|திருத்தப்பட்ட|புதுப்பிப்பு|اصلاحیه|اصلاح شد|به‌روزرسانی|به روزرسانی"
)
_CORRECTED_MORE_GATE = (
    "marekebisho", "sahihisho", "sahihishwa", "pagwawasto", "iwinasto", "pagtatama", "itinama", "pindaan",
    "kemas kini", "rectificaci", "errates", "esmena", "actualitzaci", "rettelse", "berigtigelse", "opdatering",
    "korrektion", "oprav", "upřesnění", "aktualizac", "виправлен", "уточнен", "оновлен", "সংশোধন", "হালনাগাদ",
    "திருத்த", "புதுப்பிப்பு", "اصلاح", "روزرسانی",
)  # fmt: skip
_CHANGED_MORE = (
    r"\b(?:sasa|kuanzia sasa|badala ya|mpya|imebadilika|ngayon|simula ngayon|hindi na|kundi|sa halip|pinalitan|"
    r"kini|baharu|bertukar|ditukar|ara|a partir d'ara|ja no|en lloc de|nou|nova|nous|noves|canviat|"
    r"fremover|fremadrettet|ikke længere|i stedet|nye|ændret|nyní|nově|od teď|již ne|už ne|místo|nov[ýáée]\w*|změněn\w*|"
    r"тепер|відтепер|більше не|замість|змінив\w*|змінено|"
    # the earlier one declared wrong, the right one given: "el bueno es ...", "the right one is ..."
    r"the (?:right|correct) one is|el (?:bueno|correcto) es|la (?:buena|correcta) es|o (?:certo|correto) [ée]|"
    r"a (?:certa|correta) [ée]|le bon est|la bonne est|der richtige ist|die richtige ist|quello giusto [èe]|"
    r"quella giusta [èe]|het juiste is|de juiste is)\b|"
    r"এখন|নতুন|পরিবর্তে|বদলে|இனி|இப்போது|புதிய|பதிலாக|اکنون|از این پس|به جای|جدید|تغییر"
)
_PAY_MORE = (
    r"\b(?:malipo|kulipa|ankara|bayad|pagbabayad|ibayad|bayaran|pagaments?|transferènci\w*|"
    r"overførsel\w*|platb\w*|plateb|převod\w*|переказ\w*|"
    # donations paid in, as payments are
    r"donations?|donaci[oó]n\w*|doa[çc][õãa]\w*|spende\w*|donazion\w*|donaties?|darowizn\w*)\b|"
    r"পেমেন্ট|পরিশোধ|টাকা পাঠা|অর্থ প্রদান|கட்டண|செலுத்த|پرداخت|واریز|انتقال وجه|فاکتور"
)
_ACCOUNT_MORE = (
    r"\b(?:akaunti|akaun|compte bancari|comptes?|účet|účt\w*|рахун\w*)\b|"
    # an IBAN written out, in its groups of four ("ES91 2100 0418 ...")
    r"\b[a-z]{2}\d{2}(?:\s?[a-z0-9]{4}){3,7}\b|"
    r"হিসাব|অ্যাকাউন্ট|একাউন্ট|கணக்கு|கணக்கில்|شماره حساب|حساب|شبا"
)
_DATA_MORE = (
    r"\b(?:ripoti|faili|nakala|file|ulat|datos|kopya|fail|sandaran|còpies de seguretat|informes?|dades|exportaci\w*|"
    r"fitxers?|sikkerhedskopi\w*|filer|záloh\w*|soubor\w*|dat|звіт\w*|дані|даних|файл\w*|експорт\w*)\b|"
    r"ফাইল|প্রতিবেদন|রিপোর্ট|ডেটা|ব্যাকআপ|கோப்பு|அறிக்கை|தரவு|காப்புப்|پشتیبان|گزارش|داده|فایل|خروجی"
)
_OUTSIDER_MORE = (
    r"\b(?:wa nje|binafsi|panlabas|peribadi|ekstern\w*|udenlandsk\w*|soukrom\w*|osobní|"
    r"зовнішн\w*|особист\w*|іноземн\w*)\b|"
    r"বাইরের|বহিরাগত|বিদেশি|ব্যক্তিগত|வெளி|தனிப்பட்ட|خارجی|شخصی|بیرون"
)
_DESTINATION_MORE = (
    r"\b(?:anwani|barua pepe|e-mel|adreça|correu|postkasse|schránk\w*|пошт\w*)\b|"
    r"ঠিকানা|ইমেইল|ই-মেইল|முகவரி|மின்னஞ்சல்|نشانی|آدرس|ایمیل|سرور"
)
_APPROVES_MORE = (
    r"\b(?:idhini|kuidhinisha|pag-apruba|aprubahan|apruba|kelulusan|meluluskan|aprova\w*|autoritz\w*|"
    r"godkend\w*|schval\w*|затвердж\w*|погодж\w*|погоджу\w*)\b|"
    r"অনুমোদন|ஒப்புதல்|அங்கீகார|تأیید|تایید|مصوب"
)
_REPLACED_MORE = (
    r"\b(?:badala ya|hindi na|kundi|sa halip|ja no|en lloc de|sinó|ikke længere|i stedet for|již ne|už ne|místo|"
    r"nýbrž|більше не|замість|а не)\b|"
    r"পরিবর্তে|பதிலாக|به جای"
)
# ... and in Norwegian, Romanian, Hungarian, Finnish, Hebrew and Urdu, with "supersedes" (a
# document's own word for a correction). Hungarian "számla" is an account and an invoice: read as
# the account only, or a corrected invoice date would name both.
_CORRECTED_MORE += (
    r"|\b(?:supersed\w*|oppdatering\w*|corectare|corectur\w*|rectificare|erat[aă]|actualizare|helyesbítés\w*|"
    r"javítás\w*|frissítés\w*|pontosítás\w*|korjaus\w*|oikaisu\w*|päivitys\w*|korjattu)\b|"
    r"תיקון|עדכון|הבהרה|تصحیح|ترمیم|اپ ڈیٹ"
)
_CORRECTED_MORE_GATE += (
    "supersed", "oppdatering", "corectare", "corectur", "rectificare", "erata", "erată", "actualizare", "helyesbítés",
    "javítás", "frissítés", "pontosítás", "korjaus", "oikaisu", "päivitys", "korjattu", "תיקון", "עדכון", "הבהרה",
    "تصحیح", "ترمیم", "اپ ڈیٹ",
)  # fmt: skip
_CHANGED_MORE += (
    r"|\b(?:nå|heretter|ikke lenger|endret|acum|de acum|începând|nu mai|în loc|nou|nouă|noi|schimbat\w*|mostantól|"
    r"már nem|helyett|új|megváltozott|nyt|jatkossa|ei enää|sijaan|uusi|uude\w*|muuttunut)\b|"
    r"מעכשיו|כעת|עכשיו|במקום|חדש|כבר לא|اب سے|کے بجائے|نیا|نئی|نئے|تبدیل"
)
_PAY_MORE += (
    r"|\b(?:overføring\w*|plata|plății|plăți\w*|plătit\w*|plătește|fizetés\w*|kifizetés\w*|átutalás\w*|maksu\w*|maksetaan|maksettava\w*|maksaa|"
    r"lasku\w*|tilisiirto\w*)\b|תשלום|תשלומים|העברות|ادائیگی|منتقلی"
)
_ACCOUNT_MORE += (
    r"|\b(?:contul\w*|cont|száml\w*|bankszáml\w*|tili\w*|tilinumero\w*)\b|"
    r"חשבון|اکاؤنٹ|کھاتہ|کھاتے"
)
_DATA_MORE += (
    r"|\b(?:sikkerhetskopi\w*|copi\w* de rezervă|rapoart\w*|datele|datelor|fișier\w*|biztonsági mentés\w*|"
    r"jelentés\w*|adat|adatok\w*|adatai\w*|adatbázis\w*|fájl\w*|varmuuskopio\w*|tiedosto\w*|vienti\w*)\b|"
    r"גיבוי|דוח|נתונים|קבצים|ייצוא|بیک اپ|رپورٹ|ڈیٹا|فائل"
)
_OUTSIDER_MORE += (
    r"|\b(?:utenlandsk\w*|külső\w*|külsős|magán\w*|személyes|ulkoi\w*|ulkopuoli\w*|henkilökohtai\w*|yksityi\w*)\b|"
    r"חיצוני|פרטי|אישי|بیرونی|ذاتی|نجی"
)
_DESTINATION_MORE += (
    r"|\b(?:e-post\w*|cím\w*|szerver\w*|osoite\w*|osoittee\w*|sähköposti\w*|palvelin\w*)\b|"
    r"כתובת|מייל|שרת|پتہ|ای میل|سرور"
)
_APPROVES_MORE += (
    r"|\b(?:godkjen\w*|aprob\w*|jóváhagy\w*|engedélyez\w*|hyväksy\w*)\b|מאשר|אישור|יאשר|منظوری|منظور"
)
_REPLACED_MORE += (
    r"|\b(?:ikke lenger|i stedet for|nu mai|în loc de|már nem|helyett|ei enää|sijaan|vaan)\b|"
    r"במקום|כבר לא|ולא|کے بجائے|بلکہ"
)
_CORRECTED = f"{_CORRECTED}|{_CORRECTED_MORE}"
GATE = GATE | frozenset(text_form(w) for w in _CORRECTED_MORE_GATE)
_CHANGED = f"{_CHANGED}|{_CHANGED_MORE}"
_PAY = f"{_PAY}|{_PAY_MORE}"
_ACCOUNT = f"{_ACCOUNT}|{_ACCOUNT_MORE}"
_DATA = f"{_DATA}|{_DATA_MORE}"
_OUTSIDER = f"{_OUTSIDER}|{_OUTSIDER_MORE}"
_DESTINATION = f"{_DESTINATION}|{_DESTINATION_MORE}"
_OUTSIDE = (
    rf"{_ADDRESS}|(?:{_OUTSIDER})\s*(?:\S+\s+){{0,2}}?\S{{0,6}}?(?:{_DESTINATION})|"
    rf"(?:{_DESTINATION})\S{{0,4}}\s*(?:{_OUTSIDER})"
)
_APPROVES = f"{_APPROVES}|{_APPROVES_MORE}"
_REPLACED = f"{_REPLACED}|{_REPLACED_MORE}"


# Callers moved: a support or phone number that is now an outside or foreign one ("the help line is
# now an external number"). Outside means another firm or country here, not "personal": a person's
# own new number is an ordinary correction.
_LINE = (
    r"\b(?:(?:phone|telephone|contact|support|help|service) numbers?|hotlines?|helplines?|numbers?|"
    r"nummer\w*|rufnummer\w*|numéro\w*|número\w*|numer[oi]\w*|numer\w*|numara\w*|nomor|nombor|talian|"
    r"số điện thoại|đường dây|namba|nambari|linka|čísl\w*|linje|línia|номер\w*|лінія|лінію|αριθμ\w*)\b|"
    r"رقم|خط|नंबर|नम्बर|หมายเลข|เบอร์|号码|热线|電話番号|番号|번호|নম্বর|எண்|شماره|"
    r"\b(?:număr\w*|telefonszám\w*|szám|puhelinnumero\w*)\b|מספר|نمبر"
)
_FOREIGN = (
    r"\b(?:external|outside|third-party|foreign|overseas|outsourced|extern\w*|ausländisch\w*|étrang\w*|"
    r"extranjer\w*|estern\w*|stranier\w*|estrangeir\w*|buitenlands\w*|zewnętrzn\w*|zagraniczn\w*|harici|yabancı|"
    r"bên ngoài|nước ngoài|eksternal|asing|utländsk\w*|внешн\w*|сторонн\w*|зарубежн\w*|иностранн\w*|εξωτερικ\w*|"
    r"wa nje|panlabas|luar|ekstern\w*|udenlandsk\w*|zahraniční\w*|зовнішн\w*|іноземн\w*)\b|"
    r"خارجي|خارجی|بیرونی|बाहरी|विदेशी|ภายนอก|ต่างประเทศ|外部|境外|海外|国外|社外|외부|해외|বাইরের|বিদেশি|বহিরাগত|"
    r"வெளிநாட்டு|வெளி|\b(?:utenlandsk\w*|străin\w*|külső\w*|külföldi\w*|ulkoi\w*|ulkomai\w*)\b|"
    r"חיצוני|בחו\"ל|غیر ملکی"
)
# Cases escalated: where complaints and escalations go ("escalations now go to an external
# consultant"). Unlike an approver, a new internal holder is routine ("escalations go to Maria now,
# not Tom"): only an outsider counts.
_ESCALATED = (
    r"\b(?:escalat\w*|eskalation\w*|eskalier\w*|escalad\w*|escalamiento\w*|escalaci[oó]n\w*|escalazion\w*|"
    r"escalonament\w*|escalonad\w*|escalatie\w*|geëscaleerd|eskalac\w*|eskalasyon\w*|eskalasi|eskalering\w*|"
    r"eskalaatio\w*|эскалац\w*|ескалац\w*|κλιμάκωσ\w*)\b|"
    r"تصعيد|एस्केलेशन|上报|升级处理|エスカレーション|에스컬레이션|ارجاع|העברה לטיפול"
)
_LINE_OUTSIDE = (
    rf"(?:{_FOREIGN})\S{{0,6}}?\s*(?:\S+\s+)?(?:{_LINE})|(?:{_LINE})\S{{0,4}}\s*(?:\S+\s+)?(?:{_FOREIGN})"
)


# A contact handed out: a corrected address, phone or account number that the row orders given to
# the people served ("give this one to all customers", "comunica questo a chi segnala un incidente",
# "வாடிக்கையாளர்களுக்கு இதையே கொடுக்கவும்"): whoever writes it moves everyone who calls or pays. A
# person's own new number told to nobody is an ordinary correction.
_CONTACT = (
    r"[\w.+-]+@[\w-]+\.[\w.]+|\b[a-z]{2}\d{2}(?: ?[a-z0-9]{4}){3,}|"
    r"(?<![\w.,/:-])\+?\d(?:[ .-]?\d){8,}(?![\w/:])"  # nine digits and more: no date, no price
)
_SERVED = (
    r"\b(?:customers?|clients?|callers?|users|everyone|everybody|anyone|anybody|whoever|the public|visitors|patients|"
    r"tenants|members|suppliers|kunden|anrufer\w*|allen|jede[mn]|appelants|tous|toutes|quiconque|ceux qui|clientes|"
    r"llamantes|todos|quien(?:es)?|clienti|chiunque|chi|tutti|quem|klanten|bellers|iedereen|klient\w*|dzwoni[ąa]c\w*|"
    r"wszystkim|ka[żz]demu|клиент\w*|клієнт\w*|всем|усім|звонящ\w*|m[üu][şs]teri\w*|herkese|khách hàng|mọi người|"
    r"pelanggan|semua orang|kund\w*|alle|alla|wateja|kila mtu|kliyente|z[áa]kazn[íi]k\w*|v[šs]em|v[šs]etk[ýy]m|"
    r"clien[țţt]i\w*|[üu]gyfel\w*|mindenki\w*|asiakka\w*|kaikille|πελάτ\w*|όλους|klientams|visiems)\b|"
    r"العملاء|للعملاء|الجميع|مشتریان|همه|ग्राहकों|ग्राहक|সবাইকে|গ্রাহক|வாடிக்கையாளர்|お客様|顧客|全員|客户|所有人|고객|ลูกค้า|לקוחות"
)
_GIVE = (
    r"\b(?:give|tell|send|share|provide|communicate|pass (?:on|along)|hand|forward|direct|point|quote|"
    r"gib|geben|nenn\w*|mitteil\w*|teil\w* mit|weitergeb\w*|schick\w*|donne\w*|communiqu\w*|indiqu\w*|transmet\w*|"
    r"envoie\w*|d[ée]|dale|dales|comunic\w*|indic\w*|proporcion\w*|facilit\w*|env[íi]a\w*|dai|d[àa]|fornisc\w*|"
    r"invia\w*|passe|inform\w*|envie|geef|geven|deel|stuur|noem|poda\w*|przeka[żz]\w*|informuj\w*|дава\w*|"
    r"сообща\w*|сообщи\w*|указыва\w*|повідомля\w*|ver\w*|bildir\w*|ilet\w*|cung cấp|gửi|báo|berikan|beri|kirim|"
    r"sampaikan|giv|gi|ge|oppgi|meddel\w*|wape|mpe|toa|d[áa]v[ae]j\w*|sd[ěe]l\w*|uv[áa]d[ěe]j\w*|poskytuj\w*|"
    r"da[țţ]i|trimite\w*|add(?: meg)?|adja|k[üu]ldd|anna|kerro|δώσ\w*|δίνε\w*|duok\w*|pateik\w*|nurodyk\w*)\b|"
    r"أعط|اعط|زود|أبلغ|بده|بدهید|اعلام کن|दें|बताएं|बताओ|দিন|দাও|জানান|கொடு|வழங்கு|தெரிவி|伝え|案内|教え|渡し|告诉|提供给|"
    r"告知|안내|알려|전달|แจ้ง|บอก|תן|תנו|מסור"
)
_GIVE_REACH = 60  # characters between the giving verb and the people it gives to


def _contact_handed_out(text: str) -> str | None:
    """What contact `text` (a correction's sentence and the next) orders given to the people served."""
    contact = _CONTACT_RE.search(text)
    if contact is None:
        return None
    for served in _SERVED_RE.finditer(text):
        lo, hi = max(0, served.start() - _GIVE_REACH), served.end() + _GIVE_REACH
        if give := _GIVE_RE.search(text, lo, hi):
            return f"contact: '{contact[0]}' given ('{give[0].strip()}') to '{served[0]}'"
    return None


# A control narrowed: the approval of payments that now applies only above an amount ("two-person approval of
# transfers applies only to amounts above one million, not 10k as noted"): every payment below the
# new line goes through unchecked. "Not only" widens it, and passes.
_ONLY = (
    r"(?<!not )(?<!nicht )(?<!non )(?<!no )(?<!nie )(?<!не )\b(?:only|solely|just|nur|erst|seulement|uniquement|"
    r"s[óo]lo|[úu]nicamente|solamente|soltanto|apenas|somente|s[óo]|alleen|pas|tylko|wy[łl][ąa]cznie|только|лише|"
    r"тільки|yaln[ıi]zca|sadece|chỉ|hanya|endast|bara|kun|vain|csak|doar|μόνο|tik|jen|len|pouze)\b|"
    r"فقط|केवल|सिर्फ|শুধু|மட்டும்|のみ|だけ|仅|只|만|เท่านั้น|רק"
)
_ABOVE = (
    r"\b(?:above|over|more than|exceeding|greater than|[üu]ber|oberhalb|au-del[àa]|sup[ée]rieur\w*|plus de|m[áa]s de|"
    r"superior\w*|por encima|oltre|sopra|acima|mais de|boven|meer dan|powy[żz]ej|ponad|свыше|более|выше|понад|вище|"
    r"[üu]zeri\w*|[üu]st[üu]\w*|trên|di atas|lebih dari|[öo]ver|mer [äa]n|yli|felett\w*|peste|πάνω από|vir[šs]|"
    r"daugiau nei|nad|vy[šs]e|viac ako)\b|"
    r"فوق|أكثر من|بیش از|से अधिक|से ऊपर|এর বেশি|மேல்|以上|超|초과|이상|เกิน|מעל"
)
_AMOUNT = r"\d|\b(?:million\w*|milion\w*|mill[oó]n\w*|миллион\w*|мільйон\w*|thousand|tausend|mille|tys|mln|k)\b"
_NARROWED_REACH = 60  # characters from the approval to "only above" and its amount


def _control_narrowed(text: str) -> str | None:
    """The approval of payments `text` (a correction's sentence and the next) says now applies only
    above an amount ("approvals only take over 3 days" names no payment)."""
    if not _PAY_RE.search(text):
        return None
    for approves in _APPROVES_RE.finditer(text):
        only = _ONLY_RE.search(text, approves.end(), approves.end() + _NARROWED_REACH)
        above = only and _ABOVE_RE.search(text, only.end(), only.end() + 30)
        if above and _AMOUNT_RE.search(text, above.end(), above.end() + 25):
            return f"approval: '{approves[0]}' narrowed to '{only[0]} ... {above[0]}'"
    return None


_CORRECTED_RE = cue_pattern(_CORRECTED)
_CHANGED_RE = cue_pattern(_CHANGED)
_PAY_RE = cue_pattern(_PAY)
_ACCOUNT_RE = cue_pattern(_ACCOUNT)
_DATA_RE = cue_pattern(_DATA)
_OUTSIDE_RE = cue_pattern(_OUTSIDE)
_OUTSIDER_RE = cue_pattern(_OUTSIDER)
_REPLACED_RE = cue_pattern(_REPLACED)
_APPROVES_RE = cue_pattern(_APPROVES)
_LINE_OUTSIDE_RE = cue_pattern(_LINE_OUTSIDE)
_ESCALATED_RE = cue_pattern(_ESCALATED)
_CONTACT_RE = re.compile(_CONTACT)
_ONLY_RE = cue_pattern(_ONLY)
_ABOVE_RE = cue_pattern(_ABOVE)
_AMOUNT_RE = cue_pattern(_AMOUNT)
_SERVED_RE = cue_pattern(_SERVED)
_GIVE_RE = cue_pattern(_GIVE)


# An account's number written out (an IBAN, a sort code or BSB, "acct 1188 4521"): where money
# goes, named by its number, with or without a word of paying ("bank details changed. New IBAN ...")
# (an IBAN's check digits may read as leetspeak once normalised: "de44" is "dea4"; ten digits or
# more in it tell it from words)
_ACCOUNT_NUMBER_RE = cue_pattern(
    r"\b[a-z]{2}[\da-z]{2}(?: ?[a-z0-9]{4}){3,7}\b|"
    r"\b(?:sort code|bsb|routing(?: number)?|aba)\W{0,3}\d{2,3}[- ]?\d{2,3}[- ]?\d{2,4}\b|"
    r"\b(?:acct|account(?: number| no\.?)?|konto(?:nummer)?|cuenta|compte|conta|rekening|rachunek|hesap|n[ºo°]\.? de cuenta)"
    r"\W{0,3}(?:no\.?\W{0,2})?\d[\d -]{5,}\d"
)
_DIGITS_IN_ACCOUNT = 6  # an account's number has six digits or more; words and codes fewer
# A site where a payment is now made ("the portal for fee payment moved to pay-stmarys-school.org"),
# or where a sign-in now goes (below)
_SITE_RE = cue_pattern(SITE)


def _account_number(text: str) -> str | None:
    """An account's number written out in `text` (six digits or more), or None."""
    found = (m[0] for m in _ACCOUNT_NUMBER_RE.finditer(text))
    return next((n for n in found if sum(map(str.isdigit, n)) >= _DIGITS_IN_ACCOUNT), None)


def _risky(text: str) -> str | None:
    """What risky holder `text` (one sentence) names: money, data or approval; None for none."""
    pay = _PAY_RE.search(text)
    if pay and (account := _ACCOUNT_RE.search(text)):
        return f"money: '{pay[0]}' to '{account[0]}'"
    if number := _account_number(text):
        return f"money: to account '{number}'"
    if pay and (site := _SITE_RE.search(text)):
        return f"money: '{pay[0]}' on '{site[0]}'"
    if (data := _DATA_RE.search(text)) and (outside := _OUTSIDE_RE.search(text)):
        return f"data: '{data[0]}' to '{outside[0]}'"
    if (approves := _APPROVES_RE.search(text)) and (
        holder := _REPLACED_RE.search(text) or _OUTSIDER_RE.search(text)
    ):
        return f"approval: '{approves[0]}' by '{holder[0]}'"
    escalated = _ESCALATED_RE.search(text)
    # the outsider they now go to follows them ("escalations go to an external consultant"); an
    # outsider named before is someone else ("the external consultant's workshop ..., escalations stay")
    outsider = escalated and _OUTSIDER_RE.search(text, escalated.end(), escalated.end() + 120)
    if escalated and outsider:
        return f"escalations: '{escalated[0]}' to '{outsider[0]}'"
    if line := _LINE_OUTSIDE_RE.search(text):
        return f"callers: '{line[0]}'"
    return _sign_in_moved(text) or _kept_from(text)


# -- where people sign in, and who is told -----------------------------------------------------
# A sign-in moved: the credentials people enter, or a shared password, now go to a site of the
# correction's own ("enter your corporate login on villa-booking.net") or to anyone who asks,
# outsiders too. A corrected venue or link with no sign-in names no secret.
_SIGN_IN_RE = cue_pattern(
    r"\b(?:log-?ins?|sign-?ins?|credentials|passwords?|passw[öo]rt\w*|zugangsdaten|anmeldedaten|identifiants|"
    r"mots? de passe|contrase[ñn]as?|credenciales|credenziali|password|senhas?|credenciais|wachtwoord\w*|"
    r"inloggegevens|has[łl][oa]\w*|dane logowania|hesl[oa]\w*|přihlašovací údaje|kata sandi|mật khẩu|[şs]ifre\w*|"
    r"l[öo]senord\w*|passord\w*|парол\w*|учётн\w* данн\w*|учетн\w* данн\w*)\b"
)
_SITE_OR_ANYONE_RE = cue_pattern(
    rf"{SITE}|"
    r"\b(?:anyone|anybody|externals?|outsiders?|jede[mnr]?|externe[nm]?|n'importe qui|cualquiera|chiunque|"
    r"qualquer (?:um|pessoa)|iedereen|każdemu|komukoli|kdokoli\w*|externist\w*|siapa pun|herkese|любому)\b"
)
# Kept from those who would check it: the change made "without telling" the people it moves or the
# office that checks it ("di non avvisare l'ufficio acquisti", "tanpa memberi tahu pelanggan").
_KEPT_FROM_RE = cue_pattern(
    r"\b(?:without (?:telling|informing|notifying|letting \w+ know)|(?:do not|don't|not to|never) "
    r"(?:tell|inform|notify|alert)|ohne (?:\w+ ){0,3}(?:zu )?(?:informieren|benachrichtigen|bescheid zu sagen)|"
    r"sans (?:pr[ée]venir|informer|avertir|aviser)|ne pas (?:pr[ée]venir|informer|avertir)|"
    r"sin (?:avisar|informar|notificar|decir)|no (?:avisar|informar|notificar) a|"
    r"senza (?:avvisare|informare|avvertire|dire)|(?:di )?non (?:avvisare|informare|avvertire)|"
    r"sem (?:avisar|informar|notificar)|n[ãa]o (?:avisar|informar|notificar)|"
    r"zonder (?:\w+ ){0,3}te (?:informeren|melden|waarschuwen)|niet (?:informeren|melden)|"
    r"tanpa (?:memberi ?tahu|memberitahu|menginformasikan|mengabari)|jangan (?:memberi ?tahu|beri ?tahu)|"
    r"bez (?:informowania|powiadomienia|powiadamiania|informování|upozornění|vědomí)|"
    r"utan att (?:meddela|informera|säga)|uden at (?:informere|fortælle)|uten å (?:informere|si fra)|"
    r"haber vermeden|bildirmeden|không (?:báo|thông báo) cho|не (?:сообщая|уведомляя|информируя)|без уведомления)"
)


def _sign_in_moved(text: str) -> str | None:
    sign_in = _SIGN_IN_RE.search(text)
    where = sign_in and _SITE_OR_ANYONE_RE.search(text)
    return f"sign-in: '{sign_in[0]}' to '{where[0]}'" if sign_in and where else None


def _kept_from(text: str) -> str | None:
    kept = _KEPT_FROM_RE.search(text)
    return f"kept from those it concerns: '{kept[0]}'" if kept else None


# Sentences after the correction word's own in which the holder it moves may be named: in a long
# document a "correction" paragraph is followed by unrelated ones (a tightened rule, a new MFA step).
CORRECTION_REACH = 2


def correction_hit(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` (a normalise()d row, split into `sentences` by the semantic layer)
    corrects an earlier memory to move money, data or an approval to a new holder; None when not."""
    corrected = _CORRECTED_RE.search(norm)
    if corrected is None:
        return None
    changed = _CHANGED_RE.search(norm)
    # a contact handed out needs no word of change: "..., not support@acme.com" replaces one; a
    # control narrowed is the change itself
    replaced = changed or _REPLACED_RE.search(norm)
    found = list(sentences)
    first = None  # the sentence of the correction word: the holder it moves is named there or soon after
    for i, sentence in enumerate(found):
        if sentence.end() <= corrected.start():
            continue
        first = i if first is None else first
        if i > first + CORRECTION_REACH:
            break
        # the sentence and the next: "X has a new bankgiro, 5402-9981. Pay all invoices there."
        following = found[i + 1][0] if i + 1 < len(found) else ""
        window = f"{sentence[0]} {following}"
        risky = (changed and _risky(window)) or (replaced and _contact_handed_out(window))
        if risky:
            why = f"a correction ('{corrected[0]}') that changes ('{replaced[0].strip()}') {risky}"
            return why, sentence.start()
        if narrowed := _control_narrowed(window):
            return f"a correction ('{corrected[0]}') that narrows a control: {narrowed}", sentence.start()
    return None
