package messages

// messagesAdjust: the referee's adjustment form on
// /tournaments/{tid}/adjustments (web/adjustment_*.go). Ids start with
// "adjust.".
var messagesAdjust = map[string]msg{
	"adjust.new":            {"Nuovo provvedimento", "New adjustment"},
	"adjust.intro":          {"Ammonizioni, ritardi, riposi e abbandoni (regolamento, provvedimenti arbitrali). Il punteggio segue dal regolamento; solo il punteggio arbitrale si scrive a mano. Un provvedimento non si modifica: per rimediare se ne registra un altro.", "Warnings, lateness, byes and abandonment (rule book, referee adjustments). The score follows from the rules; only a referee score is typed in. An adjustment is never edited: to make amends, record another one."},
	"adjust.entrant":        {"Partecipante", "Entrant"},
	"adjust.choose":         {"— scegli —", "— choose —"},
	"adjust.round":          {"Turno", "Round"},
	"adjust.no_round":       {"tutto il torneo", "the whole tournament"},
	"adjust.round_option":   {"Turno %d", "Round %d"},
	"adjust.round_hint":     {"Obbligatorio per ritardi, riposi e abbandoni; l'ammonizione e il punteggio arbitrale possono valere per tutto il torneo.", "Required for lateness, byes and abandonment; a warning and a referee score may count for the whole tournament."},
	"adjust.reason":         {"Motivo", "Reason"},
	"adjust.note":           {"Nota", "Note"},
	"adjust.note_hint":      {"Obbligatoria per il punteggio arbitrale: scrivi perché.", "Required for a referee score: say why."},
	"adjust.score":          {"Punteggio arbitrale", "Referee score"},
	"adjust.score_hint":     {"Solo per il punteggio arbitrale: VP e MP assegnati (negativi per una penalità).", "For a referee score only: the VP and MP awarded (negative for a penalty)."},
	"adjust.vp":             {"VP", "VP"},
	"adjust.mp":             {"MP", "MP"},
	"adjust.submit":         {"Registra il provvedimento", "Record the adjustment"},
	"adjust.created":        {"Provvedimento registrato: il suo effetto sulla classifica è nella tabella.", "Adjustment recorded: its effect on the standings is in the table."},
	"adjust.not_saved":      {"Il provvedimento non è stato registrato: correggi i campi segnalati.", "The adjustment was not recorded: correct the fields marked."},
	"adjust.detail":         {"Dettaglio: %s", "Detail: %s"},
	"adjust.err_number":     {"Scrivi un numero intero.", "Type a whole number."},
	"adjust.err_entrant":    {"Scegli un partecipante iscritto al torneo.", "Choose an entrant of the tournament."},
	"adjust.err_round":      {"Scegli il turno a cui si riferisce.", "Choose the round it concerns."},
	"adjust.err_reason":     {"Questo motivo non si può applicare così.", "This reason cannot be applied like this."},
	"adjust.err_note":       {"Scrivi la nota (obbligatoria per il punteggio arbitrale, al massimo 2000 caratteri).", "Write the note (required for a referee score, 2000 characters at most)."},
	"adjust.err_vp":         {"VP: solo per il punteggio arbitrale, e allora obbligatori.", "VP: for a referee score only, and then required."},
	"adjust.err_mp":         {"MP: solo per il punteggio arbitrale, e allora obbligatori.", "MP: for a referee score only, and then required."},
	"adjust.err_conflict":   {"Questo partecipante ha già un risultato per questo turno; per compensare usa un punteggio arbitrale.", "This entrant already has a result for this round; to compensate use a referee score."},
	"adjust.entrant_number": {"n. %s", "no. %s"},
}
