# ruff: noqa: E501, RUF001 -- word lists read better unbroken; letters of other scripts are matched on purpose
"""The semantic layer's steering check, pure (no Django): the model made to push one vendor, or
scripted for good to answer a topic with a one-sided claim.

Two ideas, in the 20 languages of the grid:

- Product or vendor steering: an exclusivity word (only, ausschließlich, uniquement, wyłącznie,
  sadece, chỉ, только, μόνο, فقط, सिर्फ़, เฉพาะ, 只, だけ, 오직 ...) with a recommending verb
  (recommend, empfehlen, conseiller, poleć, öner, рекомендуй, 推荐 ...) about a vendor, a shop or a
  web site, or with the alternatives to be disparaged (the others called unsafe, fraud, scams).
- A scripted answer made to last: a lasting or recurring trigger in the row ("from now on",
  "every time someone asks", "für immer", "каждый раз", "たびに") and a verb of answering with
  what to say ("answer that", "réponds que", "отвечай, что", "ตอบว่า", "と答え", "다고 답해")
  followed (or, where the verb ends the clause, preceded) by a one-sided claim: only, the best,
  guaranteed.

Deliberately let pass: a person's own preference ("I only buy bread at Dupont", "I'd only
recommend Miele": the sentence opens on its speaker); security advice naming the official source
("only install apps from the official store, other sites are unsafe"); a manner of answering
("answer only in German", "日本語だけで答えて": no "that" before the claim); a plan made to last
("from now on I want to run every morning": nothing scripted to answer).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memory.lifecycle.inspection_lexicon import NEGATION
from memory.lifecycle.inspection_patterns import cue_pattern

CLASS = "product_steering"

# Exclusivity: one vendor and no other.
_EXCL = (
    r"\b(?:only|exclusively|solely|nothing but|none other than|no one else|nobody else|no other)\b|"
    r"\b(?:nur|ausschlie(?:ß|ss)lich|einzig\w*|sonst niemand\w*|kein(?:e|en)? ander\w*)\b|"
    r"\b(?:uniquement|seul(?:e|es|s|ement)?|exclusivement|personne d'autre|aucune? autre)\b|"
    r"\b(?:solo|sólo|solamente|únicamente|exclusivamente|únic[oa]s?|nadie más|ningún otro|ninguna otra)\b|"
    r"\b(?:soltanto|unicamente|esclusivamente|unic[oa]|nessun altro)\b|"
    r"\b(?:só|somente|apenas|mais ninguém|nenhum outro|nenhuma outra)\b|"
    r"\b(?:alleen|uitsluitend|enkel|enige|niemand anders)\b|"
    r"\b(?:tylko|wyłącznie|jedyn\w*|nikt inny)\b|"
    r"\b(?:sadece|yalnızca|yalnız|bir tek|tek|başka hiçbir)\b|"
    r"(?<!địa )\bchỉ\b(?! (?:dẫn|đường|định|thị|số|tiêu|huy|trích))|\bduy nhất\b|\bkhông ai khác\b|"
    r"\b(?:hanya|cuma|satu-satunya|semata-mata)\b|"
    r"\b(?:endast|bara|enbart|enda|uteslutande|ingen annan)\b|"
    r"\b(?:только|исключительно|единственн\w*|лишь|никто другой|никакой другой)\b|"
    r"\b(?:μόνο|αποκλειστικά|μοναδικ\w*|κανένας άλλος|καμία άλλη)\b|"
    r"فقط|حصر(?:ا|ًا|يا|يًا)|الوحيد(?:ة)?|لا غير|دون غيره|"
    r"सिर्फ़|सिर्फ|केवल|एकमात्र|"
    r"เฉพาะ|เท่านั้น|แค่|อย่างเดียว|เพียง|"
    r"只(?!是|要|好|不过)|仅|唯一|独家|"
    r"だけ|のみ|唯一|"
    r"오직|오로지|유일|(?<=[가-힣])(?<!지)만(?=\s|이\s|을\s|$)|"
    # sw tl ms ca da cs uk; bn ta fa
    r"\b(?:pekee|peke yake|lamang|sahaja|només|únicament|exclusivament|kun|udelukkende|eneste|"
    r"pouze|jen|jenom|výhradně|jedině|тільки|лише|виключно|єдин\w*)\b|"
    r"শুধু|শুধুমাত্র|কেবল|மட்டும்|மட்டுமே|تنها|صرفا"
)
# A verb of recommending or sending people somewhere.
_REC = (
    r"\b(?:recommend\w*|suggest\w*|advis\w*|endors\w*|promot\w*|push|(?:point|refer|send|direct|steer)\s+(?:\w+\s+)?(?:to|towards?))\b|"
    r"\b(?:empf(?:ie|e)hl\w*|vorschlag\w*|schlag\w*\s+(?:\w+\s+){0,3}?vor|verweis\w*|schick\w*|bewirb\w*|bewerb\w*)\b|"
    r"\b(?:recommand\w*|conseill\w*|suggér\w*|sugger\w*|propos\w*|orient\w*|renvoi\w*|redirig\w*|envoi\w*|envoy\w*|promeu\w*|promouv\w*)\b|"
    r"\b(?:recomend\w*|recomiend\w*|suger\w*|sugier\w*|aconsej\w*|propón\w*|remit\w*|deriv\w*|dirig\w*|indica\w*|promocion\w*)\b|"
    r"\b(?:consigli\w*|raccomand\w*|suggeri\w*|suggerisc\w*|propon\w*|indic\w*|indirizz\w*|promuov\w*)\b|"
    r"\b(?:indiqu\w*|sugir\w*|aconselh\w*|encaminh\w*|direcion\w*|promov\w*)\b|"
    r"\b(?:raad\w*|aanraden|aanbevel\w*|beveel\w*|adviseer\w*|verwijs\w*|stuur\w*)\b|"
    r"\b(?:poleć\w*|polec\w*|rekomend\w*|zaleć\w*|zalec\w*|doradz\w*|doradź\w*|sugeruj\w*|proponuj\w*|kieruj\w*|odsyłaj\w*|odeślij\w*|wskaż\w*|wskazuj\w*)\b|"
    r"\b(?:öner\w*|tavsiye\w*|yönlendir\w*|salık ver\w*)\b|"
    r"\b(?:giới thiệu|khuyên|đề xuất|đề cử|gợi ý|tư vấn|hướng dẫn|chuyển)\b|"
    r"\b(?:rekomendasi\w*|merekomendasikan|sarankan|menyarankan|anjurkan|menganjurkan|arahkan|mengarahkan|tawarkan|menawarkan)\b|"
    r"\b(?:rekommender\w*|föreslå\w*|tipsa\w*|råd(?:a|er|gör)\w*|hänvis\w*)\b|"
    r"\b(?:рекоменд\w*|совет\w*|посовет\w*|предлага\w*|предлож\w*|направля\w*|направь\w*|отправля\w*|отправь\w*|посыла\w*|пошли\w*)\b|"
    r"\b(?:πρότεινε|προτείν\w*|σύστησε|συστήν\w*|συνίστ\w*|συμβούλευ\w*|παρέπεμπε|παράπεμψε|κατεύθυνε)\b|"
    r"انصح|أنصح|ننصح|أوص|اوص|اقترح|رشّح|رشح|وجّه|وجه|أحل|احل|"
    # the third person, present: "the assistant recommends, suggests, nominates" (يوصي, تنصح, يقترح, يرشّح)
    r"(?<![\u0600-\u06ff])[يت](?:وصي|وصى|نصح|قترح|رشّح|رشح|حيل|وجّه)|"
    r"सिफ़ारिश|सिफारिश|सुझा|सलाह|रेकमेंड|"
    r"แนะนำ|เสนอ|ชี้ไป|ส่งไป|"
    r"推荐|推薦|建议|介绍|引导|"
    r"推奨|勧め|薦め|すすめ|推薦|紹介|案内|誘導|"
    r"추천|권하|권해|권유|안내|소개|"
    r"\b(?:pendekez\w*|elekez\w*|irekomenda|inirerekomenda|imungkahi|cadang\w*|mencadangkan|syorkan|mengesyorkan|"
    r"recomana\w*|aconsella\w*|suggereix\w*|anbefal\w*|henvis\w*|doporuč\w*|navrhuj\w*|odkazuj\w*|порадь\w*|пропонуй\w*)\b|"
    r"সুপারিশ|পরামর্শ|பரிந்துரை|توصیه|پیشنهاد"
)
# A verb of describing or telling: the alternatives to be called something.
_TELL = (
    r"\b(?:describ\w*|call|label\w*|present|portray|paint|brand|warn\w*|say|tell|characteri[sz]e|treat|flag|mark)\b|"
    r"\b(?:bezeichn\w*|nenn\w*|darstell\w*|stell\w*|warn\w*|sag\w*|beschreib\w*|erklär\w*)\b|"
    r"\b(?:présent\w*|décri\w*|qualifi\w*|traite\w*|appel\w*|averti\w*|préven\w*|dis|dire|affirm\w*|signal\w*)\b|"
    r"\b(?:describ\w*|present\w*|califica\w*|llam\w*|advi[ei]rt\w*|advert\w*|di|dile\w*|decir|afirm\w*|tach\w*)\b|"
    r"\b(?:descriv\w*|segnal\w*|definisc\w*|chiam\w*|avvert\w*|avvis\w*|dire|dici)\b|"
    r"\b(?:diga|dizer|descrev\w*|apresent\w*|chame\w*|classifiqu\w*|avis\w*|alert\w*)\b|"
    r"\b(?:noem\w*|beschrijf\w*|presenteer\w*|waarschuw\w*|zeg\w*)\b|"
    r"\b(?:przedstaw\w*|opisz\w*|opisuj\w*|nazywaj\w*|nazwij\w*|ostrzegaj\w*|ostrzeż\w*|mów\w*|powiedz\w*)\b|"
    r"\b(?:söyle\w*|tanıt\w*|uyar\w*|göster\w*|nitelendir\w*)\b|"
    r"\b(?:nói|bảo|mô tả|gọi|cảnh báo)\b|"
    r"\b(?:sebut\w*|katakan|bilang|gambarkan|peringatkan|nyatakan)\b|"
    r"\b(?:beskriv\w*|kalla\w*|säg\w*|varna\w*|framställ\w*)\b|"
    r"\b(?:называ\w*|назови\w*|описыва\w*|опиши\w*|представля\w*|говори\w*|скажи\w*|предупрежда\w*|предупреди\w*)\b|"
    r"\b(?:χαρακτήρισε|χαρακτηρίζ\w*|περίγραψε|περιέγραφε|πες|λέγε|προειδοποίησε|προειδοποίει)\b|"
    # bounded: "قل" and "صف" are inside Persian "تقلبی" (fake) and "صفحه" (page)
    r"(?<!\S)(?:صِف|صف|قل|وقل)(?!\S)|قولي|حذّر|حذر|اعتبر|"
    r"बताओ|बताना|बताएं|बताइए|कहो|कहना|बोलो|चेतावनी|"
    r"บอก|อธิบาย|เตือน|เรียก|"
    r"告诉|说|称|描述|警告|提醒|"
    r"書い|書く|言っ|言う|伝え|説明|警告|呼ん|"
    r"말해|말하|설명|경고|알려|"
    r"\b(?:aambiwe|waambie|mwambie|useme|aseme|sema|sabihing|sabihin|sabihan|katakan|beritahu|nyatakan|"
    r"digues|diguin|descriu\w*|omtal\w*|beskriv\w*|kald\w*|řekni|říkej|označuj\w*|popisuj\w*|tvrď\w*|"
    r"кажи|скажи|називай|описуй)\b|"
    r"বলবে|বলুন|বলো|বলতে হবে|জানাবে|கூற வேண்டும்|சொல்ல வேண்டும்|கூறவும்|சொல்லவும்|"
    r"بگوید|بگو|بگویید|فقل|कहें|कहिए|と伝え|と言っ|と答え"
)
# The alternatives, and what they are to be called.
_OTHERS = (
    r"\b(?:others?|the rest|alternatives?|competitors?|competition|anyone else|every other|any other)\b|"
    r"\b(?:ander(?:e|en|er|es)|übrig\w*|konkurren\w*|restlich\w*|vergleichsportal\w*)\b|"
    r"\b(?:autres?|concurren\w*|le reste)\b|\b(?:otr[oa]s|demás|el resto|competencia|competidor\w*)\b|"
    r"\b(?:altr[ie]|concorren\w*|il resto)\b|\b(?:outr[oa]s|demais|o resto)\b|\b(?:ander\w*|concurrent\w*|overige|de rest)\b|"
    r"\b(?:inn(?:e|ych|ym|i)|pozostał\w*|konkurencj\w*)\b|\b(?:diğer\w*|başka\w*|rakip\w*)\b|"
    r"\b(?:khác|đối thủ)\b|\b(?:lain\w*|pesaing)\b|\b(?:andra|övriga|konkurrent\w*)\b|"
    r"\b(?:друг\w*|остальн\w*|конкурент\w*)\b|\b(?:άλλ\w*|υπόλοιπ\w*|ανταγωνιστ\w*)\b|"
    r"\b(?:nyingine|mengine|wengine|washindani|mshindani|ibang|iba pang|kakumpitensya|altres|competència|"
    r"competidors|andre|anden|andet|konkurrent\w*|jiné|jiných|jinou|ostatní\w*|konkurenc\w*|інш\w*|решта)\b|"
    r"অন্য|অন্যান্য|প্রতিযোগী|வேறு|மற்ற|பிற |போட்டி|دیگر|رقبا|رقیب|"
    r"الأخرى|الاخرى|الآخرين|غيره|المنافس|बाकी|दूसरे|दूसरी|अन्य|อื่น|其他|其它|别的|其余|他社|他の|ほか|その他|다른|타사|나머지"
)
_BAD = (
    r"\b(?:unsafe|insecure|fraud\w*|scam\w*|danger\w*|crook\w*|untrustworth\w*|unreliable|fake|rip-?offs?|shady|dodgy|dishonest|criminal\w*|thie(?:f|ves)|steal\w*)\b|"
    r"\b(?:unsicher\w*|betrüg\w*|betrug\w*|abzock\w*|gefährlich\w*|unseriös\w*|kriminell\w*|gauner\w*)\b|"
    r"\b(?:arnaque\w*|dangereu\w*|frauduleu\w*|escroc\w*|douteu\w*|voleur\w*|non sécurisé\w*|pas sûr\w*)\b|"
    r"\b(?:fraudulent\w*|peligros\w*|estafa\w*|timo\w*|insegur\w*|ladr\w*|engaños\w*)\b|"
    r"\b(?:truff\w*|pericolos\w*|fraudolent\w*|insicur\w*|inaffidabil\w*)\b|"
    r"\b(?:golpe\w*|perigos\w*|fraude\w*|enganos\w*)\b|"
    r"\b(?:onveilig\w*|frauduleu\w*|oplicht\w*|gevaarlijk\w*|onbetrouwbaar\w*)\b|"
    r"\b(?:niebezpieczn\w*|oszuk\w*|oszust\w*|oszuś\w*|nieuczciw\w*|niepewn\w*)\b|"
    r"\b(?:dolandırıcı\w*|güvensiz\w*|tehlikeli\w*|sahte\w*)\b|"
    r"\b(?:lừa đảo|không an toàn|nguy hiểm|gian lận|giả mạo)\b|"
    r"\b(?:penipu\w*|tidak aman|berbahaya|palsu|abal-abal)\b|"
    r"\b(?:bedräg\w*|osäker\w*|farlig\w*|oseriös\w*|bluff\w*)\b|"
    r"\b(?:жулик\w*|мошенн\w*|небезопасн\w*|опасн\w*|обман\w*|ненадёжн\w*|ненадежн\w*|крад\w*|вор(?:ы|ов|ами)?)\b|"
    r"\b(?:απάτ\w*|απατε\w*|επικίνδυν\w*|μη ασφαλ\w*|ανασφαλ\w*|αναξιόπιστ\w*)\b|"
    r"احتيال\w*|نصب|غير آمن\w*|خطير\w*|محتال\w*|مزيف\w*|"
    r"धोखाधड़ी|धोखेबाज़|धोखेबाज|धोखा|असुरक्षित|खतरनाक|ख़तरनाक|फर्जी|फ़र्ज़ी|"
    r"มิจฉาชีพ|ไม่ปลอดภัย|อันตราย|หลอกลวง|โกง|"
    r"骗局|骗子|诈骗|不安全|危险|不可靠|"
    r"詐欺|危険|安全でない|怪しい|悪質|"
    r"사기|위험|안전하지|가짜|"
    # worse, faulty, hidden fees, claims unpaid: the others run down as a product, not only as crooks
    r"\b(?:worse|inferior|faulty|defective|hidden (?:fees|charges|costs)|break(?:s|ing)? (?:down )?easily|"
    r"schlechter|minderwertig\w*|fehleranfällig\w*|versteckte (?:gebühren|kosten)|"
    r"pires?|inférieur\w*|frais cachés|tombe\w* en panne|peores?|de mala calidad|(?:cargos|comisiones) ocult\w*|"
    r"piores?|taxas (?:escondidas|ocultas)|хуже|некачественн\w*|скрыт\w* (?:комисси|платеж|плат|расход)\w*|"
    r"verborgen (?:kosten|toeslagen)|slechter|ukryt\w* (?:opłat|koszt)\w*|gorsz\w*|costi nascosti|commissioni nascoste|"
    r"dolde (?:avgifter|kostnader)|gizli (?:ücret|maliyet)\w*|phí ẩn|biaya tersembunyi|κρυφ\w* χρεώσ\w*|"
    r"si salama|hatari|mbaya zaidi|duni|huharibika|ulaghai|matapeli|"
    r"madaling masira|madali itong masira|hindi ligtas|delikado|manloloko|"
    r"tidak selamat|lebih teruk|mudah rosak|caj tersembunyi|"
    r"perillos\w*|pitjors?|de mala qualitat|estafa\w*|càrrecs ocults|"
    r"dårligere|ringere|usikker|usikre|upålidelig\w*|svindel\w*|skjulte gebyrer|"
    r"horší|nebezpečn\w*|nespolehliv\w*|podvod\w*|nekvalitní|skryté poplatky|"
    r"гірш\w*|небезпечн\w*|ненадійн\w*|шахра\w*)\b|"
    r"নিরাপদ নয়|বিপজ্জনক|নিম্নমানের|প্রতারক|প্রতারণা|ভুয়া|দাবি মেটায় না|লুকানো (?:চার্জ|খরচ)|"
    r"ஆபத்தான|பாதுகாப்பற்ற|மோசமான|தரமற்ற|மோசடி|போலி|பழுதாகும்|"
    r"ناامن|خطرناک|بدتر|بی‌کیفیت|بیکیفیت|کلاهبردار|تقلبی|دیر می‌پردازند|دیر میپردازند|هزینه‌های پنهان|"
    r"كثيرة الأعطال|أسوأ|رديئة|رسوم خفية|رسوم مخفية|تكاليف خفية|छिपे शुल्क|छुपे शुल्क|घटिया|बदतर|"
    r"壊れやすい|品質が悪い|故障が多い|隠れた費用|质量差|容易坏|隐藏费用"
)
# What a steered recommendation names: a seller, a site, a brand (not "vegetarian restaurants").
_VENDOR = (
    r"\b(?:shops?|stores?|sites?|websites?|vendors?|sellers?|retailers?|providers?|suppliers?|brands?|banks?|brokers?|insurers?|dealers?|platforms?|compan(?:y|ies)|firms?|agenc(?:y|ies)|apps?|services?)\b|"
    r"\b(?:laden|geschäft\w*|händler\w*|anbieter\w*|webseite\w*|marke\w*|bank\w*|versicherer\w*|plattform\w*|firma|firmen|dienst\w*)\b|"
    r"\b(?:magasin\w*|boutique\w*|site\w*|fournisseur\w*|marque\w*|banque\w*|assureur\w*|plateforme\w*|société\w*|enseigne\w*)\b|"
    r"\b(?:tienda\w*|sitio\w*|proveedor\w*|marca\w*|banco\w*|aseguradora\w*|plataforma\w*|empresa\w*|farmacia\w*|bufete\w*)\b|"
    r"\b(?:negozi\w*|sito|fornitor\w*|banca|compagnia|piattaform\w*|societ\w*)\b|"
    r"\b(?:loja\w*|fornecedor\w*|operadora\w*|seguradora\w*)\b|"
    r"\b(?:winkel\w*|webshop\w*|aanbieder\w*|leverancier\w*|merk\w*|bedrijf\w*|verzekeraar\w*)\b|"
    r"\b(?:sklep\w*|stron\w*|dostawc\w*|mark\w*|bank\w*|firm\w*|ubezpieczyciel\w*|serwis\w*)\b|"
    r"\b(?:mağaza\w*|site\w*|sağlayıcı\w*|marka\w*|bank\w*|şirket\w*|firma\w*)\b|"
    r"\b(?:cửa hàng|trang|nhà cung cấp|thương hiệu|ngân hàng|công ty|sàn|ứng dụng)\b|"
    r"\b(?:toko|situs|penyedia|merek|bank|perusahaan|aplikasi)\b|"
    r"\b(?:butik\w*|sajt\w*|webbplats\w*|leverantör\w*|märke\w*|bank\w*|företag\w*|försäkringsbolag\w*)\b|"
    r"\b(?:магазин\w*|сайт\w*|сервис\w*|поставщик\w*|провайдер\w*|бренд\w*|банк\w*|компани\w*|мастерск\w*)\b|"
    r"\b(?:κατάστημα\w*|ιστότοπ\w*|πάροχ\w*|μάρκα\w*|τράπεζα\w*|εταιρεία\w*)\b|"
    r"متجر|بمتجر|موقع|مزود|علامة|بنك|شركة|"
    r"दुकान|स्टोर|वेबसाइट|साइट|प्रदाता|ब्रांड|बैंक|कंपनी|"
    r"ร้าน|เว็บ|ผู้ให้บริการ|แบรนด์|ธนาคาร|บริษัท|"
    r"商城|商店|网站|网店|供应商|品牌|银行|公司|平台|"
    r"ショップ|店|サイト|業者|ブランド|銀行|会社|証券|"
    r"쇼핑몰|매장|사이트|업체|브랜드|은행|회사|마트|"
    r"\b(?:duka|kampuni|benki|chapa|tovuti|tindahan|kompanya|kedai|syarikat|jenama|pakej|botiga\w*|empresa\w*|"
    r"proveïdor\w*|butik\w*|forhandler\w*|mærke\w*|selskab\w*|leverandør\w*|obchod\w*|značk\w*|e-shop\w*|"
    r"dodavatel\w*|компані\w*|постачальник\w*)\b|"
    r"দোকান|কোম্পানি|ব্র্যান্ড|ব্যাংক|ওয়েবসাইট|கடை|நிறுவன|பிராண்ட்|வங்கி|இணையதள|فروشگاه|شرکت|برند|بانک|علامة|"
    r"\b[a-z0-9][\w-]*\.(?:com|net|org|shop|store|io|co|de|fr|es|it|pt|br|nl|pl|tr|vn|id|se|ru|gr|in|th|cn|jp|kr|uk|eu)\b"
)
# Security advice names the official or verified source, an IT policy the company's own: not one seller.
_OFFICIAL = (
    r"\b(?:official|verified|trusted|licensed|certified|authori[sz]ed|internal|in-house|corporate|company-(?:issued|provided)|the company|intern(?:e|en|er)?|firmeneigen\w*|interno|interna|internes?|wewnętrzn\w*|внутренн\w*|offiziell\w*|verifiziert\w*|officiel\w*|vérifié\w*|oficial\w*|verificad\w*|"
    r"ufficial\w*|verificat\w*|officieel\w*|geverifieerd\w*|oficjaln\w*|zweryfikowan\w*|resmi|doğrulanmış|chính thức|officiell\w*|"
    r"verifierad\w*|официальн\w*|проверенн\w*|επίσημ\w*|ufficiale)\b|الرسمي\w*|आधिकारिक|ทางการ|官方|公式|正規|공식|정식"
)
# The sentence opens on its speaker: a person's own preference or opinion.
_OWN = (
    r"^\W*(?:i|i'd|i'm|i'll|we|we'd|ich|wir|je|j'|nous|yo|io|eu|ik|wij|ja|my|ben|biz|tôi|saya|aku|kami|jag|vi|"
    r"я|мы|εγώ|εμείς|أنا|نحن|मैं|हम|ฉัน|ผม|เรา|我|私|저는|나는|저희는)\b"
)
# A behaviour made to last, or set off every time a topic comes up.
_LASTING = (
    r"\b(?:from now on|forever|for good|permanently|(?:in|for) (?:all|every) (?:future|later)|going forward|whenever|every time|each time|any ?time (?:someone|anyone|a user|the user|people)|keep (?:this|that|it) in mind|remember (?:this|that))\b|"
    r"\b(?:dauerhaft|für immer|ab (?:jetzt|sofort|heute)|künftig|zukünftig|jedes mal|immer wenn|wann immer|von nun an|merk dir)\b|"
    r"\b(?:pour de bon|pour toujours|désormais|dorénavant|à partir de maintenant|à l'avenir|chaque fois|toutes les fois|retiens|souviens-toi)\b|"
    r"\b(?:para siempre|de ahora en adelante|a partir de ahora|cada vez|siempre que|recuerda|grabad[oa])\b|"
    r"\b(?:per sempre|d'ora in poi|da ora in poi|da adesso|ogni volta|ricorda\w*)\b|"
    r"\b(?:de forma permanente|permanentemente|de agora em diante|a partir de agora|sempre que|toda vez|lembre\w*|guarde isso)\b|"
    r"\b(?:voortaan|voor altijd|vanaf nu|elke keer|telkens|onthoud)\b|"
    r"\b(?:na stałe|na zawsze|od teraz|odtąd|za każdym razem|zawsze gdy|zawsze kiedy|zapamiętaj)\b|"
    r"\b(?:bundan sonra|kalıcı\w*|her seferinde|her zaman|sonsuza|aklında tut)\b|"
    r"\b(?:vĩnh viễn|mãi mãi|từ giờ|từ nay|mỗi khi|mỗi lần|hễ|bất cứ khi nào|ghi nhớ)\b|"
    r"\b(?:selamanya|mulai sekarang|seterusnya|tiap kali|setiap kali|kapan pun|ingat)\b|"
    r"\b(?:för alltid|permanent|från och med nu|hädanefter|varje gång|kom ihåg)\b|"
    r"\b(?:навсегда|отныне|с этого момента|впредь|каждый раз|всякий раз|запомни)\b|"
    r"\b(?:μόνιμα|για πάντα|από τώρα|κάθε φορά|να θυμάσαι|θυμήσου)\b|"
    r"دائم|للأبد|من الآن|كلما|في كل مرة|تذك|"
    r"हमेशा|अब से|जब भी|हर बार|याद रख|"
    r"ตลอดไป|ตั้งแต่นี้|ทุกครั้ง|จำไว้|"
    r"永久|永远|以后|今后|从现在开始|每次|每当|记住|"
    r"ずっと|今後|永久|これから|たびに|度に|覚えて|"
    r"앞으로|영원히|때마다|기억해"
)
# A verb of answering with what to say: the claim follows it ("answer that only X ...").
_SCRIPT_AFTER = (
    r"\b(?:answer|reply|respond|say|state|claim|insist|tell (?:them|him|her|people|users?|customers?|everyone))\s+(?:\w+\s+){0,2}?that\b|\bthe answer is\b|"
    r"\b(?:antwort\w*|sag\w*|erklär\w*|behaupt\w*)\b[^.;:]{0,20}?\bdass\b|"
    r"\b(?:répond\w*|dis|dire|affirm\w*|expliqu\w*)\b[^.;:]{0,20}?\bqu(?:e\b|')|"
    r"\b(?:respond\w*|responde|di|dile\w*|diles|decir|afirm\w*)\b[^.;:]{0,20}?\bque\b|\bla respuesta (?:es|será)\b|"
    r"\b(?:rispond\w*|dici|dire|afferm\w*)\b[^.;:]{0,20}?\bche\b|\bla risposta è\b|"
    r"\b(?:diga|diz\w*|dizer|afirme)\b[^.;:]{0,20}?\bque\b|\ba resposta é\b|"
    r"\b(?:antwoord\w*|zeg\w*)\b[^.;:]{0,20}?\bdat\b|"
    r"\b(?:odpowiada\w*|odpowiedz\w*|mów\w*|powiedz\w*)\b[^.;:]{0,20}?\bże\b|"
    r"\b(?:trả lời|nói|bảo|khẳng định)\b|"
    r"\b(?:jawab\w*|katakan\w*|bilang|nyatakan)\b|"
    r"\b(?:svara\w*|säg\w*|säga)\b[^.;:]{0,20}?\batt\b|"
    r"\b(?:отвеча\w*|ответь\w*|говори\w*|скажи\w*)\b[^.;:]{0,20}?\b(?:что|будто)\b|"
    r"\b(?:απάντα\w*|απάντησε|απαντ\w*|πες|λέγε|να λες)\b[^.;:]{0,20}?\b(?:ότι|πως)\b|"
    r"(?:أجب|اجب|أجيبي|قل|قولي|رد|ردّ)\s*(?:ب)?(?:أن|ان|إن)|"
    r"(?:जवाब|उत्तर|कहना|कहो|बताना|बताओ|बोलना)[^।.]{0,15}?\sकि\s|"
    r"(?:ตอบ|บอก|พูด)ว่า|"
    r"回答|回复|答复|告诉\S{0,4}|说"
)
# ... or precedes it, where the verb ends the clause (Japanese, Korean, Turkish).
_SCRIPT_BEFORE = (
    r"と(?:答え|回答|言っ|言う|言い|伝え|説明)|(?:다고|라고)\s*(?:답|말|대답|안내|알려|설명)|"
    r"\b(?:olduğunu|diye)\s+(?:\w+\s+){0,2}?(?:söyle\w*|cevap\w*|yanıt\w*)"
)
# The one-sided claim: only (the exclusivity words), the best, guaranteed.
_CLAIM = (
    _EXCL + r"|\b(?:best|cheapest|lowest|highest|guarantee\w*|certain(?:ly)?|risk-free|no risk)\b|"
    r"\b(?:best\w*|günstigst\w*|garantiert\w*)\b|\b(?:meilleur\w*|garanti\w*|sans risque)\b|"
    r"\b(?:mejor\w*|garantizad\w*|sin riesgo)\b|\b(?:miglior\w*|garantit\w*|senza rischi)\b|"
    r"\b(?:melhor\w*|garantid\w*|sem risco)\b|\b(?:goedkoopst\w*|gegarandeerd\w*)\b|"
    r"\b(?:najlepsz\w*|najtańsz\w*|gwarantowan\w*)\b|\b(?:en iyi|en ucuz|garanti\w*|kesin\w*)\b|"
    r"\b(?:tốt nhất|rẻ nhất|chắc chắn|đảm bảo|cao nhất|thấp nhất)\b|\b(?:paling|terbaik|termurah|dijamin|pasti)\b|"
    r"\b(?:bäst\w*|billigast\w*|garanterad\w*)\b|\b(?:лучш\w*|гарантирован\w*)\b|"
    r"\b(?:καλύτερ\w*|φθηνότερ\w*|εγγυημέν\w*)\b|أفضل|الأفضل|مضمون|أرخص|"
    r"सबसे|गारंटी|पक्का|ที่สุด|รับประกัน|แน่นอน|最|保证|稳赚|一番|最も|最高|確実|保証|최고|가장|보장|확실"
)

# Substrings one of which a row must hold for the check to read it (the semantic layer's gate).
GATE = frozenset(
    {
        "only", "exclusiv", "solely", "no one else", "nobody else", "no other", "nur", "ausschlie", "einzig",
        "uniquement", "seul", "solo", "sólo", "únic", "unic", "soltanto", "só", "somente", "apenas", "nadie más",
        "alleen", "uitsluitend", "enkel", "enige", "tylko", "wyłącznie", "jedyn", "sadece", "yalnız", "tek",
        "chỉ", "duy nhất", "hanya", "cuma", "satu-satunya", "endast", "bara", "enbart", "enda", "только",
        "исключительно", "единствен", "лишь", "μόνο", "αποκλειστικά", "μοναδικ", "فقط", "حصر", "الوحيد",
        "सिर्फ", "केवल", "एकमात्र", "เฉพาะ", "เท่านั้น", "แค่", "อย่างเดียว", "เพียง", "只", "仅", "唯一", "独家",
        "だけ", "のみ", "오직", "오로지", "유일", "만",
        "best", "cheapest", "lowest", "highest", "guarant", "certain", "meilleur", "mejor", "miglior", "melhor",
        "goedkoopst", "najlepsz", "en iyi", "tốt nhất", "chắc chắn", "đảm bảo", "paling", "terbaik", "dijamin",
        "bäst", "лучш", "гарантир", "καλύτερ", "أفضل", "مضمون", "सबसे", "गारंटी", "ที่สุด", "最", "保证", "一番",
        "確実", "保証", "최고", "가장", "보장", "solament", "garant", "esclusiv", "nessun altro", "ningún otro",
        "ninguna otra", "niemand anders", "nikt inny", "başka hiçbir", "không ai khác", "semata", "uteslutande",
        "ingen annan", "никто другой", "никакой другой", "κανένασ άλλοσ", "καμία άλλη", "لا غير", "دون غيره",
        "kein ander", "keine ander", "keinen ander", "personne d'autre", "aucun autre", "aucune autre",
        "mais ninguém", "nenhum outro", "nenhuma outra", "none other", "nothing but", "risk-free", "no risk",
        "günstigst", "sans risque", "sin riesgo", "senza rischi", "sem risco", "najtańsz", "gwarantowan",
        "en ucuz", "kesin", "rẻ nhất", "cao nhất", "thấp nhất", "termurah", "pasti", "billigast", "φθηνότερ",
        "εγγυημέν", "أرخص", "पक्का", "รับประกัน", "แน่นอน", "稳赚", "확실", "the answer is",
        "la respuesta", "la risposta", "a resposta", "ausschliess",
        # the languages tune6 added: exclusivity
        "pekee", "lamang", "sahaja", "només", "únicament", "exclusivament", "kun ", "udelukkende", "eneste",
        "pouze", "jen ", "výhradně", "jedině", "тільки", "лише", "виключно", "єдин", "শুধু", "কেবল",
        "மட்டும்", "تنها", "صرفا",
        # the others run down (_run_down): words a disparagement cannot do without
        "worse", "inferior", "faulty", "defective", "hidden fee", "hidden charge", "hidden cost", "easily",
        "schlechter", "minderwertig", "fehleranfällig", "versteckte", " pire", "inférieur", "frais cachés",
        "verborgen kosten", "verborgen toeslagen", "slechter", "ukryt", "gorsz", "nascost", "dolde", "gizli", "phí ẩn",
        "κρυφ", "скрыт", "مخفية", "تكاليف خفية",
        "en panne", "peor", "mala calidad", "ocult", "piores", "taxas escondidas", "хуже", "некачествен",
        "si salama", "hatari", "mbaya zaidi", "duni", "huharibika", "ulaghai", "matapeli", "masira",
        "hindi ligtas", "delikado", "manloloko", "tidak selamat", "lebih teruk", "mudah rosak",
        "tersembunyi", "perillos", "pitjor", "mala qualitat", "estafa", "ocults", "dårligere", "ringere",
        "usikker", "usikre", "upålidelig", "svindel", "skjulte", "horší", "nebezpečn", "nespolehliv", "podvod",
        "nekvalitní", "skryté", "гірш", "небезпечн", "ненадійн", "шахра", "নিরাপদ নয়", "বিপজ্জনক",
        "নিম্নমানের", "প্রতারক", "প্রতারণা", "ভুয়া", "দাবি মেটায় না", "লুকানো", "ஆபத்தான", "பாதுகாப்பற்ற",
        "மோசமான", "தரமற்ற", "மோசடி", "போலி", "பழுதாகும்", "ناامن", "خطرناک", "بدتر", "کیفیت", "کلاهبردار",
        "تقلبی", "دیر می", "دیر میپردازند", "پنهان", "الأعطال", "أسوأ", "رديئة", "خفية", "छिपे", "छुपे",
        "unsafe", "insecure", "fraud", "scam", "danger", "crook", "untrustworth", "unreliable", "rip-off",
        "ripoff", "shady", "dodgy", "dishonest", "unsicher", "betrüg", "betrug", "abzock", "gefährlich", "unseriös",
        "gauner", "arnaque", "dangereu", "frauduleu", "escroc", "douteu", "non sécurisé", "pas sûr", "peligros",
        "insegur", "engaños", "truff", "pericolos", "fraudolent", "insicur", "inaffidabil", "golpe", "perigos",
        "fraude", "onveilig", "oplicht", "gevaarlijk", "onbetrouwbaar", "niebezpieczn", "oszuk", "oszust", "oszuś", "απατε",
        "nieuczciw", "dolandırıcı", "güvensiz", "tehlikeli", "sahte", "lừa đảo", "không an toàn", "nguy hiểm",
        "gian lận", "giả mạo", "penipu", "tidak aman", "berbahaya", "palsu", "bedräg", "osäker", "farlig",
        "oseriös", "жулик", "мошенн", "небезопасн", "опасн", "обман", "ненадёжн", "ненадежн", "απάτ",
        "επικίνδυν", "ανασφαλ", "αναξιόπιστ", "احتيال", "غير آمن", "خطير", "محتال", "مزيف", "धोखा", "असुरक्षित",
        "खतरनाक", "ख़तरनाक", "फर्जी", "फ़र्ज़ी", "มิจฉาชีพ", "ไม่ปลอดภัย", "อันตราย", "หลอกลวง", "骗", "不安全",
        "危险", "不可靠", "詐欺", "危険", "安全でない", "悪質", "사기", "위험", "안전하지", "가짜",
        "घटिया", "बदतर", "壊れやすい", "品質が悪い", "故障が多い", "隠れた費用", "质量差", "容易坏", "隐藏费用",
    }
)  # fmt: skip


_EXCL_RE = cue_pattern(_EXCL)
_REC_RE = cue_pattern(_REC)
_TELL_RE = cue_pattern(_TELL)
_OTHERS_RE = cue_pattern(_OTHERS)
_BAD_RE = cue_pattern(_BAD)
_VENDOR_RE = cue_pattern(_VENDOR)
_OFFICIAL_RE = cue_pattern(_OFFICIAL)
_OWN_RE = cue_pattern(_OWN)
_LASTING_RE = cue_pattern(_LASTING)
_SCRIPT_AFTER_RE = cue_pattern(_SCRIPT_AFTER)
_SCRIPT_BEFORE_RE = cue_pattern(_SCRIPT_BEFORE)
_CLAIM_RE = cue_pattern(_CLAIM)
# a telling verb negated: the shared negations and those of the languages tune6 added
_NOT_TOLD_RE = cue_pattern(
    rf"{NEGATION}|\b(?:huwag|hindi|ikke|nikdy|ні|нікому|kamwe|usi\w*)\b|نه|هرگز|কখনও না"
)
_NOT_TOLD_REACH = 25
# A caution's hedge near the bad word ("can be", "kann", "peuvent", "có thể", "могут", "可能", "かもしれ")
_HEDGE_RE = cue_pattern(
    r"\b(?:can|could|may|might|sometimes|often|kann|können|manchmal|peu[tv]ent|parfois|puede[n]?|a veces|"
    r"possono|può|pode[m]?|às vezes|kunnen|kan|soms|mogą|może|bazen|olabil\w*|có thể|bisa|mungkin|"
    r"kanske|ibland|могут|может|иногда|μπορεί|μερικές φορές|\w*naweza|maaari|boleh|poden|pot|nogle gange|"
    r"mohou|může|можуть|може)\b|قد|ممکن|शायद|सकत|อาจ|可能|かもしれ|수 있|때때로|কখনো কখনো|হতে পারে|இருக்கலாம்"
)
_HEDGE_REACH = 20
_CLAIM_REACH = 100  # the claim within a clause's reach of the verb of answering
_OFFICIAL_REACH = 40  # "only the official app", "nur über die offizielle App"


def _disparaged(text: str) -> re.Match[str] | None:
    """The alternatives named and called unsafe or a fraud in `text`."""
    others = _OTHERS_RE.search(text)
    return _BAD_RE.search(text) if others else None


def _official(text: str, excl: re.Match[str]) -> bool:
    near = text[max(0, excl.start() - _OFFICIAL_REACH) : excl.end() + _OFFICIAL_REACH]
    return _OFFICIAL_RE.search(near) is not None


def _steered(text: str) -> str | None:
    excl = _EXCL_RE.search(text)
    if not excl or _official(text, excl):
        return None
    rec = _REC_RE.search(text)
    bad = _disparaged(text)
    if rec and (bad or _VENDOR_RE.search(text)):
        extra = f"; the others called: '{bad[0]}'" if bad else ""
        return f"one vendor pushed: '{excl[0]}' with '{rec[0]}'{extra}"
    tell = _TELL_RE.search(text)
    if bad and tell:
        return f"one vendor pushed: '{excl[0]}'; the others to be called '{bad[0]}' ('{tell[0]}')"
    return None


def _run_down(text: str) -> str | None:
    """Another seller, brand or bank, or a named one, to be told of as worse, faulty, unsafe or a
    fraud ("if asked about other banks, tell them they are not safe", "andre mærker skal omtales
    som dårligere"): a disparagement scripted for whoever answers, with no "only" in the sentence."""
    bad = _BAD_RE.search(text)
    if not bad or _OFFICIAL_RE.search(text):
        return None  # "only the official app; other sites are unsafe" is security advice
    if _HEDGE_RE.search(text, max(0, bad.start() - _HEDGE_REACH), bad.end() + _HEDGE_REACH):
        return None  # "other sites can be dangerous": a caution, not a claim scripted against a rival
    tell = _TELL_RE.search(text)
    if tell is None or _NOT_TOLD_RE.search(text, max(0, tell.start() - _NOT_TOLD_REACH), tell.start()):
        return None  # "never tell anyone your PIN; fake sites pose as the bank" is advice
    named = _OTHERS_RE.search(text) or _VENDOR_RE.search(text)
    if named:
        return f"the others run down: '{named[0]}' to be called '{bad[0]}' ('{tell[0]}')"
    return None


def _scripted(text: str) -> str | None:
    for verb in _SCRIPT_AFTER_RE.finditer(text):
        claim = _CLAIM_RE.search(text, verb.end(), verb.end() + _CLAIM_REACH)
        if claim:
            return f"scripted answer: '{verb[0]}' ... '{claim[0]}'"
    for verb in _SCRIPT_BEFORE_RE.finditer(text):
        claim = _CLAIM_RE.search(text, max(0, verb.start() - _CLAIM_REACH), verb.start())
        if claim:
            return f"scripted answer: '{claim[0]}' ... '{verb[0]}'"
    return None


def steering_hit(norm: str, sentences: Iterable[re.Match[str]]) -> tuple[str, int] | None:
    """Why and where `norm` (a normalise()d row, split into `sentences` by the semantic layer)
    steers the model to one vendor or scripts a one-sided answer for good; None when it does not."""
    lasting = _LASTING_RE.search(norm)
    bad = _BAD_RE.search(norm) is not None  # no bad word in the row: no rival run down in a sentence
    for sentence in sentences:
        text = sentence[0]
        if _OWN_RE.match(text):
            continue  # "I only buy ...", "ich empfehle nur ...": the speaker's own taste
        why = _steered(text) or (_run_down(text) if bad else None)
        if why is None and lasting:
            scripted = _scripted(text)
            why = None if scripted is None else f"lasting: '{lasting[0]}'; {scripted}"
        if why:
            return why, sentence.start()
    return None
