package api

import (
	"regexp"

	"github.com/gin-gonic/gin"
	"golang.org/x/text/language"

	"segnapunti/domain"
)

// The Italian problem details (issue 10, "Italian everywhere a person
// reads"). Handlers and operations keep writing their details in English;
// writeProblem translates the title and the detail (and the field errors'
// details) once, here, when the request prefers Italian. The type URIs,
// pointers, parameters, headers and cells never change. A detail this
// catalogue does not know stays in English: mostly field-level details
// built deep in domain/, app/ and the importers.

// ctxLang is the gin context key of the request's language.
const ctxLang = "segnapunti.lang"

// problemLanguages are the languages of answers, English first (the
// default when nothing matches).
var problemLanguages = language.NewMatcher([]language.Tag{language.English, language.Italian})

// headerLang is the language an Accept-Language header prefers: Italian
// when it prefers Italian to English, otherwise (no header, an unreadable
// one, neither language) English. The one place the header is read.
func headerLang(h string) domain.Lang {
	tags, _, err := language.ParseAcceptLanguage(h)
	if err != nil || len(tags) == 0 {
		return domain.English // an unreadable header is no preference
	}
	if _, i, conf := problemLanguages.Match(tags...); conf != language.No && i == 1 {
		return domain.Italian
	}
	return domain.English
}

// negotiateLang stores the request's language in the context: ?lang= (en
// or it) on a route that documents it, otherwise Accept-Language. A
// ?lang= the route does not know or with another value is refused later
// (checkRequest, the handler) — in the language of the header.
func (s *server) negotiateLang(c *gin.Context) {
	lang := headerLang(c.GetHeader("Accept-Language"))
	if q := c.Request.URL.Query(); len(q["lang"]) == 1 && routeDocumentsLang(c) {
		switch q.Get("lang") {
		case "it":
			lang = domain.Italian
		case "en":
			lang = domain.English
		}
	}
	c.Set(ctxLang, lang)
	// Answers (problems, reports, rulings) depend on the header.
	c.Writer.Header().Add("Vary", "Accept-Language")
	c.Next()
}

func routeDocumentsLang(c *gin.Context) bool {
	table, err := queryParams()
	if err != nil {
		return false
	}
	for _, p := range table[c.Request.Method+" "+c.FullPath()] {
		if p == "lang" {
			return true
		}
	}
	return false
}

// langOf is the language negotiateLang chose (English outside it).
func langOf(c *gin.Context) domain.Lang {
	if v, ok := c.Get(ctxLang); ok {
		if l, ok := v.(domain.Lang); ok {
			return l
		}
	}
	return headerLang(c.GetHeader("Accept-Language"))
}

// titlesIT are the Italian titles by status (titles are by status, see
// titleFor).
var titlesIT = map[int]string{
	400: "Richiesta malformata",
	401: "Autenticazione richiesta",
	403: "Operazione non consentita",
	404: "Non trovato",
	405: "Metodo non consentito",
	406: "Formato non accettabile",
	409: "Conflitto",
	412: "Precondizione non soddisfatta",
	413: "Corpo della richiesta troppo grande",
	415: "Tipo di contenuto non supportato",
	422: "Richiesta non valida",
	429: "Troppe richieste",
	500: "Errore interno",
	503: "Servizio non disponibile",
	507: "Spazio di archiviazione esaurito",
}

// detailsIT are the fixed details, English → Italian.
var detailsIT = map[string]string{
	"the database is unavailable, nothing was written; retry later": "il database non è disponibile, non è stato scritto nulla; riprovare più tardi",
	"not valid UTF-8 text":         "non è testo UTF-8 valido",
	"the database does not answer": "il database non risponde",
	"the database's disk is full, nothing was written; retry once space is freed":                   "il disco del database è pieno, non è stato scritto nulla; riprovare dopo aver liberato spazio",
	"the database's disk is full: writes fail until space is freed":                                 "il disco del database è pieno: le scritture falliscono finché non si libera spazio",
	"the resource does not exist":                                                                   "la risorsa non esiste",
	"the request conflicts with the stored state; read it again and retry":                          "la richiesta è in conflitto con i dati memorizzati; rileggerli e riprovare",
	"the request breaks a rule of the stored data":                                                  "la richiesta viola una regola dei dati memorizzati",
	"the request was cancelled or ran out of time before it finished":                               "la richiesta è stata annullata o è scaduta prima di terminare",
	"the server failed to answer; the failure is logged":                                            "il server non è riuscito a rispondere; il guasto è stato registrato",
	"the export failed; the failure is logged":                                                      "l'esportazione non è riuscita; il guasto è stato registrato",
	"this route needs a token: send Authorization: Bearer <token>":                                  "questo indirizzo richiede un token: inviare Authorization: Bearer <token>",
	"the token is not valid":                                                                        "il token non è valido",
	"too many workbooks are being read at once; send this one again in a few seconds":               "si stanno leggendo troppe cartelle di lavoro insieme; inviare di nuovo questa fra qualche secondo",
	"the request body could not be read":                                                            "il corpo della richiesta non si può leggere",
	"the request body is empty; a JSON document is expected":                                        "il corpo della richiesta è vuoto; è atteso un documento JSON",
	"lang must be en or it":                                                                         "lang deve essere en oppure it",
	"give lang once":                                                                                "indicare lang una volta sola",
	"the season export is for the federation":                                                       "l'esportazione della stagione è riservata alla federazione",
	"the federation desk is for the federation and admins":                                          "la scrivania federale è riservata alla federazione e agli amministratori",
	"another write to this sheet happened at the same time; GET it and retry with If-Match":         "un'altra scrittura su questo foglio è avvenuta nello stesso momento; rileggerlo (GET) e riprovare con If-Match",
	"an entrant of the request was entered meanwhile; nothing was written":                          "un iscritto della richiesta è stato iscritto nel frattempo; non è stato scritto nulla",
	"the sheet has changed since you read it; GET it again and retry with its ETag":                 "il foglio è cambiato da quando è stato letto; rileggerlo (GET) e riprovare con il suo ETag",
	"If-Match: * needs an existing sheet, and there is none yet":                                    "If-Match: * richiede un foglio esistente, e non ce n'è ancora nessuno",
	`If-Match must be one entity tag as sent in ETag, like "3"`:                                     `If-Match deve essere un solo entity tag come inviato in ETag, per esempio "3"`,
	`want one strong entity tag like "3"`:                                                           `atteso un solo entity tag forte, per esempio "3"`,
	"a table code enters hands one by one (POST …/sheet/hands), not a whole sheet":                  "un codice di tavolo inserisce le mani una alla volta (POST …/sheet/hands), non un foglio intero",
	"this round's sheets have been delivered: the table code no longer works":                       "i fogli di questo turno sono stati consegnati: il codice del tavolo non vale più",
	"this table code was replaced by a newer one: ask the organiser for the new code":               "questo codice del tavolo è stato sostituito da uno nuovo: chiedete il nuovo codice all'organizzazione",
	"only the organising club or an admin enters sheets; referees correct them through corrections": "solo il club organizzatore o un amministratore inserisce i fogli; gli arbitri li correggono con le correzioni",
	"only the organising club, a referee of the tournament or an admin uploads sheets":              "solo il club organizzatore, un arbitro del torneo o un amministratore carica i fogli",
	"only the organising club, a referee of the tournament or an admin issues table links":          "solo il club organizzatore, un arbitro del torneo o un amministratore rilascia i link dei tavoli",
}

// actionsIT are the actions named in "only … <action>" refusals
// (app.managed, app.RefereeOnly).
var actionsIT = map[string]string{
	"assigns referees":                  "assegna gli arbitri",
	"changes round states":              "cambia lo stato dei turni",
	"changes the tournament":            "modifica il torneo",
	"changes the tournament's settings": "modifica le impostazioni del torneo",
	"corrects sheets":                   "corregge i fogli",
	"deletes the tournament":            "elimina il torneo",
	"enters entrants":                   "iscrive i partecipanti",
	"generates rounds":                  "genera i turni",
	"makes adjustments":                 "fa le rettifiche",
	"publishes rounds":                  "pubblica i turni",
	"reads the club's players":          "legge i giocatori del club",
}

// roundStatesIT name a round's state inside a sentence.
var roundStatesIT = map[string]string{
	"proposed":               "proposto",
	"playing":                "in gioco",
	"sheets_delivered":       "con i fogli consegnati",
	"standings_published":    "con la classifica pubblicata",
	"next_pairing_published": "con l'abbinamento successivo pubblicato",
	"no longer being played": "non più in gioco",
}

// patternIT translates a detail built with values: the whole detail must
// match re; the Italian is the template with $1… filled, after the
// captures are themselves translated by words when given.
type patternIT struct {
	re    *regexp.Regexp
	it    string
	words map[int]map[string]string // capture index → English → Italian
}

func pat(re, it string) patternIT {
	return patternIT{re: regexp.MustCompile("^" + re + "$"), it: it}
}

func patWords(re, it string, words map[int]map[string]string) patternIT {
	p := pat(re, it)
	p.words = words
	return p
}

// patternsIT are the common details built with values, most specific
// first.
var patternsIT = []patternIT{
	// Routing and protocol.
	pat(`no route (\S+) (.*)`, "nessun indirizzo ${1} ${2}"),
	pat(`(\S+) is not allowed here; allowed: (.*)`, "il metodo ${1} non è consentito qui; consentiti: ${2}"),
	pat(`unknown query parameter (".*")`, "parametro di query sconosciuto ${1}"),
	pat(`the query parameter (".*") is given more than once`, "il parametro di query ${1} è indicato più di una volta"),
	pat(`the query parameter (".*") is required`, "il parametro di query ${1} è obbligatorio"),
	pat(`the path parameter (".*") is not valid UTF-8`, "il parametro di percorso ${1} non è UTF-8 valido"),
	pat(`(\S+) must be an integer from (-?\d+) to (-?\d+)`, "${1} deve essere un numero intero da ${2} a ${3}"),
	pat(`(\S+) must be a whole number from 1 to (\d+), not (".*")`, "${1} deve essere un numero intero da 1 a ${2}, non ${3}"),
	// Media type, malformed JSON, size.
	pat(`the body must be application/json, not (".*")`, "il corpo deve essere application/json, non ${1}"),
	pat(`the body must be UTF-8 JSON, not charset (".*")`, "il corpo deve essere JSON in UTF-8, non nel charset ${1}"),
	pat(`the body must be multipart/form-data with the \.xlsx workbook in the field "file", not (".*")`,
		`il corpo deve essere multipart/form-data con la cartella .xlsx nel campo "file", non ${1}`),
	pat(`malformed JSON at byte (\d+): the document ends too early`, "JSON malformato al byte ${1}: il documento finisce troppo presto"),
	pat(`malformed JSON at byte (\d+): (.*)`, "JSON malformato al byte ${1}: ${2}"),
	pat(`malformed JSON at line (\d+), column (\d+): unexpected end of input`, "JSON malformato alla riga ${1}, colonna ${2}: il documento finisce troppo presto"),
	pat(`malformed JSON at line (\d+), column (\d+): (.*)`, "JSON malformato alla riga ${1}, colonna ${2}: ${3}"),
	pat(`the JSON document nests deeper than (\d+) levels`, "il documento JSON ha più di ${1} livelli di annidamento"),
	pat(`the key (".*") appears twice`, "la chiave ${1} compare due volte"),
	pat(`unexpected data after the JSON document, at byte (\d+)`, "dati inattesi dopo il documento JSON, al byte ${1}"),
	pat(`the request body is larger than the limit of (\d+) bytes`, "il corpo della richiesta supera il limite di ${1} byte"),
	pat(`the workbook is larger than the limit of (\d+) bytes \((\d+) MiB\); nothing was read or stored`,
		"la cartella di lavoro supera il limite di ${1} byte (${2} MiB); non è stato letto né memorizzato nulla"),
	// Not found.
	pat(`no tournament (".*")`, "nessun torneo ${1}"),
	pat(`no public tournament (".*")`, "nessun torneo pubblico ${1}"),
	pat(`tournament (".*") has no round (\d+)`, "il torneo ${1} non ha il turno ${2}"),
	pat(`tournament (".*") has no proposed round (\d+)`, "il torneo ${1} non ha un turno ${2} proposto"),
	pat(`round (\d+) of tournament (".*") has no table (\d+)`, "il turno ${1} del torneo ${2} non ha il tavolo ${3}"),
	pat(`no sheet has been entered for table (\d+) of round (\d+) yet`, "non è ancora stato inserito nessun foglio per il tavolo ${1} del turno ${2}"),
	pat(`tournament (".*") has no correction (\d+)`, "il torneo ${1} non ha la correzione ${2}"),
	pat(`tournament (".*") has no adjustment (\d+)`, "il torneo ${1} non ha la rettifica ${2}"),
	pat(`tournament (".*") has no entrant (".*")`, "il torneo ${1} non ha l'iscritto ${2}"),
	pat(`no import (\S+)`, "nessuna importazione ${1}"),
	pat(`no token (".*")`, "nessun token ${1}"),
	pat(`no club (".*")`, "nessun club ${1}"),
	// Forbidden.
	pat(`the (\S+) role may not do this`, "il ruolo ${1} non può farlo"),
	pat(`the (\S+) role may not list or revoke tokens`, "il ruolo ${1} non può elencare né revocare i token"),
	patWords(`only the organising club or an admin (.*)`, "solo il club organizzatore o un amministratore ${1}",
		map[int]map[string]string{1: actionsIT}),
	patWords(`only a referee of the tournament, the organising club or an admin (.*)`, "solo un arbitro del torneo, il club organizzatore o un amministratore ${1}",
		map[int]map[string]string{1: actionsIT}),
	patWords(`only a referee of the tournament or an admin (.*)`, "solo un arbitro del torneo o un amministratore ${1}",
		map[int]map[string]string{1: actionsIT}),
	pat(`a club creates tournaments for itself only; leave club out or give (".*")`, "un club crea tornei solo per sé; omettere club o indicare ${1}"),
	pat(`this code opens table (\d+) of round (\d+) only`, "questo codice apre solo il tavolo ${1} del turno ${2}"),
	// Conflict, round closed, precondition.
	patWords(`round (\d+) is (.*): its sheets are final and can no longer be entered or replaced; a correction goes through the referee \(POST (\S+); FITAB art\. 20, FIBur-INT art\. 19\)`,
		"il turno ${1} è ${2}: i suoi fogli sono definitivi e non si possono più inserire né sostituire; una correzione passa dall'arbitro (POST ${3}; FITAB art. 20, FIBur-INT art. 19)",
		map[int]map[string]string{2: roundStatesIT}),
	pat(`round (\d+) exists already`, "il turno ${1} esiste già"),
	// Imports: replace, undo (issue 10).
	pat(`the workbook would replace sheets already entered with different ones, at round/table (.*); nothing was stored: send it again with \?replace=true to replace them`,
		"la cartella sostituirebbe fogli già inseriti con fogli diversi, a turno/tavolo ${1}; non è stato memorizzato nulla: inviarla di nuovo con ?replace=true per sostituirli"),
	patWords(`round (\d+) is (.*): its sheets are final, so import (\d+) can no longer be undone \(a correction goes through the referee: FITAB art\. 20, FIBur-INT art\. 19\)`,
		"il turno ${1} è ${2}: i suoi fogli sono definitivi, quindi l'importazione ${3} non si può più annullare (una correzione passa dall'arbitro: FITAB art. 20, FIBur-INT art. 19)",
		map[int]map[string]string{2: roundStatesIT}),
	pat(`the sheet of round (\d+) table (\d+) was changed after import (\d+) \(it is at version (\d+), the import left version (\d+)\); nothing was undone: change that sheet by hand instead`,
		"il foglio del turno ${1} tavolo ${2} è stato cambiato dopo l'importazione ${3} (è alla versione ${4}, l'importazione aveva lasciato la versione ${5}); non è stato annullato nulla: correggere quel foglio a mano"),
	pat(`the sheet of round (\d+) table (\d+) that import (\d+) wrote has been removed since; nothing was undone`,
		"il foglio del turno ${1} tavolo ${2} scritto dall'importazione ${3} è stato rimosso nel frattempo; non è stato annullato nulla"),
	pat(`import (\d+) was undone already`, "l'importazione ${1} è già stata annullata"),
	pat(`import (\d+) was recorded before imports could be undone; change its sheets by hand`,
		"l'importazione ${1} è stata registrata prima che le importazioni si potessero annullare; correggerne i fogli a mano"),
	pat(`no import (\d+) in tournament (".*")`, "nessuna importazione ${1} nel torneo ${2}"),
	pat(`(\S+) must be true or false`, "${1} deve essere true o false"),
	pat(`round (\d+) is already published`, "il turno ${1} è già pubblicato"),
	// RULES §12.1, §12.2 (issue 21).
	pat(`round (\d+): tables (.*) have no delivered sheet and no adjustment replacing their result; the round's sheets are delivered when every table's are \(FITAB art\. 19\)`,
		"turno ${1}: i tavoli ${2} non hanno uno score consegnato né una rettifica che ne sostituisca il risultato; i fogli del turno sono consegnati quando lo sono quelli di ogni tavolo (FITAB art. 19)"),
	pat(`round (\d+) cannot be paired from the standings: round (\d+) lacks the sheets of tables (.*) \(FITAB art\. 2 A: the Danish pairing reads complete standings\)`,
		"il turno ${1} non si può accoppiare dalla classifica: al turno ${2} mancano gli score dei tavoli ${3} (FITAB art. 2 A: l'accoppiamento danese legge una classifica completa)"),
	pat(`tournament (\S+) has published round 1: its plan can no longer change \(FITAB art\. 2: the systems are announced before the start\)`,
		"il torneo ${1} ha pubblicato il turno 1: il suo programma non può più cambiare (FITAB art. 2: i sistemi si comunicano prima dell'inizio)"),
	pat(`a club with id (".*") exists already`, "esiste già un club con id ${1}"),
	pat(`the sheet was changed meanwhile: you corrected version (\d+), it is now at version (\d+); GET it again and decide on what it says now`,
		"il foglio è stato cambiato nel frattempo: è stata corretta la versione ${1}, ora è alla versione ${2}; rileggerlo (GET) e decidere su ciò che dice ora"),
	pat(`the sheet is at version (\d+)`, "il foglio è alla versione ${1}"),
	pat(`line (NS|EO) \((.+)\) kept the score and ended the sheet: only the other line, (NS|EO) \((.+)\), confirms it, with its own entrant number \(FITAB art\. 19\)`,
		"la linea ${1} (${2}) ha tenuto lo score e ha chiuso il foglio: lo conferma solo l'altra linea, ${3} (${4}), con il proprio numero (FITAB art. 19)"),
	pat(`the entrant number of the line that kept the score`, "il numero della linea che ha tenuto lo score"),
	pat(`the line that kept the score ends the sheet first, with its entrant number; then the other line confirms it`,
		"la linea che ha tenuto lo score chiude prima il foglio, con il proprio numero; poi l'altra linea lo conferma"),
	pat(`the sheet of table (\d+) of round (\d+) has been signed by its players: it changes only by a referee's correction \(FITAB art\. 20, FIBur-INT art\. 19\)`,
		"il foglio del tavolo ${1} del turno ${2} è stato firmato dai giocatori: cambia solo con una correzione dell'arbitro (FITAB art. 20, FIBur-INT art. 19)"),
	// Teams (RULES §12.5): matches and line-ups.
	pat(`table (\d+): match (\d+) has (\d+) table\(s\), a team match is (\d+) tables with the teams swapped \((.*)\)`,
		"tavolo ${1}: la partita ${2} ha ${3} tavolo/i, una partita a squadre è di ${4} tavoli con le squadre invertite (${5})"),
	pat(`table (\d+): match (\d+) seats (\S+)–(\S+) at table (\d+) and (\S+)–(\S+) here; the second table of a match swaps the same two teams \((.*)\)`,
		"tavolo ${1}: la partita ${2} mette ${3}–${4} al tavolo ${5} e ${6}–${7} qui; il secondo tavolo di una partita inverte le stesse due squadre (${8})"),
	pat(`table (\d+): match: a team table needs its match number \(from 1\) \((.*)\)`,
		"tavolo ${1}: match: un tavolo di un torneo a squadre richiede il numero della partita (da 1) (${2})"),
	pat(`table (\d+): team (".*") plays match (\d+) and match (\d+)`, "tavolo ${1}: la squadra ${2} gioca la partita ${3} e la partita ${4}"),
	pat(`byes\[(\d+)\]: team (".*") rests and plays match (\d+)`, "byes[${1}]: la squadra ${2} riposa e gioca la partita ${3}"),
	pat(`a (\S+) tournament has no matches: match is for team tournaments \(RULES §12\.5\)`,
		"un torneo ${1} non ha partite a squadre: match vale solo nei tornei a squadre (RULES §12.5)"),
	pat(`a (\S+) tournament has no line-ups: they seat the players of a team \(RULES §12\.5\)`,
		"un torneo ${1} non ha formazioni: indicano i giocatori di una squadra al tavolo (RULES §12.5)"),
	pat(`table (\d+) of round (\d+) has a sheet: the match has started, and a team changes its pairs only before it starts \((.*)\)`,
		"il tavolo ${1} del turno ${2} ha un foglio: la partita è iniziata, e una squadra cambia le coppie solo prima dell'inizio (${3})"),
	pat(`(".*") is not a player of team (".*"): a team changes its pairs within the team only \((.*)\)`,
		"${1} non è un giocatore della squadra ${2}: una squadra cambia le coppie solo al proprio interno (${3})"),
	pat(`(".*") already sits at the match's other table`, "${1} siede già all'altro tavolo della partita"),
	pat(`(".*") is already the line's first player`, "${1} è già il primo giocatore della linea"),
	pat(`(\d+) players, a line is a pair of (\d+) players of team (".*") \((.*)\)`,
		"${1} giocatori, una linea è una coppia di ${2} giocatori della squadra ${3} (${4})"),
}

// detailIT is the Italian of an English detail, or the detail itself when
// the catalogue does not know it.
func detailIT(en string) string {
	if en == "" {
		return en
	}
	if it, ok := detailsIT[en]; ok {
		return it
	}
	for _, p := range patternsIT {
		m := p.re.FindStringSubmatchIndex(en)
		if m == nil {
			continue
		}
		if p.words == nil {
			return string(p.re.ExpandString(nil, p.it, en, m))
		}
		// Translate the named captures first, then fill the template.
		caps := p.re.FindStringSubmatch(en)
		for i, words := range p.words {
			if w, ok := words[caps[i]]; ok {
				caps[i] = w
			}
		}
		return expandCaps(p.it, caps)
	}
	return en
}

var capRef = regexp.MustCompile(`\$\{(\d)\}`)

func expandCaps(tmpl string, caps []string) string {
	return capRef.ReplaceAllStringFunc(tmpl, func(ref string) string {
		i := int(ref[2] - '0')
		if i < len(caps) {
			return caps[i]
		}
		return ""
	})
}

// localize returns p in lang: the title, the detail and the field errors'
// details; type, status and what the errors point at are unchanged.
func localize(p problem, lang domain.Lang) problem {
	if lang != domain.Italian {
		return p
	}
	if t, ok := titlesIT[p.Status]; ok {
		p.Title = t
	}
	p.Detail = detailIT(p.Detail)
	if len(p.Errors) > 0 {
		errs := make([]fieldError, len(p.Errors))
		for i, e := range p.Errors {
			e.Detail = detailIT(e.Detail)
			errs[i] = e
		}
		p.Errors = errs
	}
	return p
}
