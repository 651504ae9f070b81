package messages

// messagesRules: the notes package domain returns as codes (domain.Note),
// worded here: the tie-breaks of RULES §8 (FITAB art. 18 "punteggio
// ex-aequo"). The English is the wording the API has always given.
var messagesRules = map[string]msg{
	"tie.h2h_not_met":   {"scontro diretto non applicabile (%s e %s non si sono incontrati)", "head-to-head not applicable (%s and %s did not meet)"},
	"tie.h2h_beat":      {"scontro diretto: %s ha battuto %s (%+d MP)", "head-to-head: %s beat %s (%+d MP)"},
	"tie.h2h_among":     {"scontro diretto, MP negli incontri tra %s: %s", "head-to-head, MP in the matches among %s: %s"},
	"tie.h2h_mp":        {"%s %+d", "%s %+d"},
	"tie.h2h_drew":      {"scontro diretto: %s e %s hanno pareggiato", "head-to-head: %s and %s drew"},
	"tie.h2h_level":     {"scontro diretto: parità negli incontri tra %s", "head-to-head: level in the matches among %s"},
	"tie.best_vp":       {"più VP in un incontro vinto: %s", "highest VP in a won match: %s"},
	"tie.best_vp_level": {"più VP in un incontro vinto: parità (%s)", "highest VP in a won match: level (%s)"},
	"tie.best_mp":       {"miglior scarto di MP in un incontro vinto: %s", "highest MP margin in a won match: %s"},
	"tie.best_mp_level": {"miglior scarto di MP in un incontro vinto: parità (%s)", "highest MP margin in a won match: level (%s)"},
	"tie.wins":          {"più vittorie: %s", "more wins: %s"},
	"tie.wins_level":    {"più vittorie: parità (%s)", "more wins: level (%s)"},
	"tie.had":           {"%s con %s", "%s had %s"},
	"tie.no_win":        {"nessuna vittoria", "no win"},
	"tie.ids":           {"%s", "%s"},
	"tie.ids_more":      {"%s e altri %d", "%s, and %d more"},
	// The rules' refusals (domain.Refusal).
	"rule.mitchell_rounds": {"con %d tavoli si giocano al massimo %d turni Mitchell dal turno %d senza ripetere un incontro; il turno %d è rifiutato (%s)", "with %d tables at most %d Mitchell rounds are played from round %d without a rematch; round %d is refused (%s)"},
	"tie.shared":           {"pari merito: %s pari in VP, MP e ogni spareggio", "shared place: %s level on VP, MP and every tie-break"},
}
