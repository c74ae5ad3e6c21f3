package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/headless"
)

// This file reads --plan-feedback: the feedback on a pending plan, with
// comments on its lines, from a file, as markdown or JSON.

// maxFeedbackFile bounds the file read.
const maxFeedbackFile = 1 << 20

// planAnswer puts the answer to a pending plan into the headless options:
// --reject-plan's feedback with the comments of --plan-feedback, or
// --approve-plan with the model of --model, which implements the plan.
func (o *rootOptions) planAnswer(h *headless.Options) error {
	if o.approvePlan != "" {
		h.ImplementModel = o.model
	}
	if !o.rejectPlanSet {
		return nil
	}
	fb := planFeedback{Feedback: o.rejectPlan}
	if o.planFeedback != "" {
		file, err := readPlanFeedback(o.planFeedback)
		if err != nil {
			return err
		}
		fb.Feedback = strings.TrimSpace(strings.TrimSpace(o.rejectPlan) + "\n\n" + file.Feedback)
		fb.Annotations = file.Annotations
	}
	h.RejectPlan = &fb.Feedback
	h.Annotations = fb.Annotations
	return nil
}

// planFeedback is what a feedback file says.
type planFeedback struct {
	Feedback    string             `json:"feedback"`
	Annotations []event.Annotation `json:"annotations"`
}

// annotationLine starts a comment on a line of the plan in markdown
// feedback: "line 3: …", "- L12: …", "* Line 7 - …".
var annotationLine = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:line|l)\s*(\d+)\s*[:.)\-–]\s*(.*)$`)

// readPlanFeedback reads a feedback file. JSON is an object with
// "feedback" and "annotations" ([{"line":N,"comment":"…"}]) or a bare list
// of annotations. Anything else is markdown: a line such as "line 3: use
// a map" comments on line 3 of the plan (the comment goes on over the
// lines below it up to a blank line or the next such line); the rest is
// general feedback. Errors name the file and, for JSON, what is wrong.
func readPlanFeedback(path string) (planFeedback, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return planFeedback{}, fmt.Errorf("--plan-feedback: %w", err)
	}
	if len(data) > maxFeedbackFile {
		return planFeedback{}, fmt.Errorf("--plan-feedback %s: larger than %d bytes", path, maxFeedbackFile)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return parseFeedbackJSON(path, trimmed)
	}
	return parseFeedbackMarkdown(string(data)), nil
}

func parseFeedbackJSON(path string, data []byte) (planFeedback, error) {
	var fb planFeedback
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var err error
	if data[0] == '[' {
		err = dec.Decode(&fb.Annotations)
	} else {
		err = dec.Decode(&fb)
	}
	if err != nil {
		return planFeedback{}, fmt.Errorf("--plan-feedback %s: not the JSON expected ({\"feedback\":\"…\",\"annotations\":[{\"line\":N,\"comment\":\"…\"}]}): %v", path, err)
	}
	return fb, nil
}

func parseFeedbackMarkdown(text string) planFeedback {
	var fb planFeedback
	var general []string
	current := -1 // index of the annotation being continued
	for _, l := range strings.Split(text, "\n") {
		if m := annotationLine.FindStringSubmatch(l); m != nil {
			n, err := strconv.Atoi(m[1])
			if err == nil {
				fb.Annotations = append(fb.Annotations, event.Annotation{Line: n, Comment: strings.TrimSpace(m[2])})
				current = len(fb.Annotations) - 1
				continue
			}
		}
		if strings.TrimSpace(l) == "" {
			current = -1
			general = append(general, "")
			continue
		}
		if current >= 0 {
			a := &fb.Annotations[current]
			a.Comment = strings.TrimSpace(a.Comment + "\n" + strings.TrimSpace(l))
			continue
		}
		general = append(general, l)
	}
	fb.Feedback = strings.TrimSpace(strings.Join(general, "\n"))
	return fb
}
