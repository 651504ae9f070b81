package api

import "segnapunti/domain"

// The plan of a tournament on the wire (API §4.3, RULES §12.1):
// {"first_round": "draw", "phases": [{"from_round": 1, "system":
// "mitchell"}], "sessions": [3, 2]}.

type planJSON struct {
	FirstRound string          `json:"first_round"`
	Phases     []planPhaseJSON `json:"phases"`
	Sessions   []int           `json:"sessions"`
}

type planPhaseJSON struct {
	FromRound int    `json:"from_round"`
	System    string `json:"system"`
}

// toDomain is the plan as written (nil: none given).
func (p *planJSON) toDomain() *domain.PlanInput {
	if p == nil {
		return nil
	}
	in := &domain.PlanInput{FirstRound: p.FirstRound, Sessions: p.Sessions}
	for _, ph := range p.Phases {
		in.Phases = append(in.Phases, domain.PlanPhaseInput{FromRound: ph.FromRound, System: ph.System})
	}
	return in
}

func toPlanJSON(p domain.Plan) planJSON {
	out := planJSON{FirstRound: string(p.FirstRound), Phases: make([]planPhaseJSON, 0, len(p.Phases)), Sessions: p.Sessions}
	for _, ph := range p.Phases {
		out.Phases = append(out.Phases, planPhaseJSON{FromRound: ph.FromRound, System: string(ph.System)})
	}
	if out.Sessions == nil {
		out.Sessions = []int{}
	}
	return out
}
