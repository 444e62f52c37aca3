package app

import (
	"slices"

	"fyne.io/fyne/v2"

	"github.com/buildstation/buildstation/supervisor"
)

// The board's keys, while no field has the focus: the arrows (or h, j, k,
// l) move the selection between cards, Enter opens the selected card's
// console (its last screen once the session has ended), r requeues it
// (blocked cards, with the same dialog as the button), d shows its diff
// (a card whose branch is known), Escape closes the card pane, or with
// none open clears the selection. The card the pane shows is the
// selected one.

func (d *dashboard) typedKey(e *fyne.KeyEvent) {
	switch e.Name {
	case fyne.KeyDown:
		d.move(0, 1)
	case fyne.KeyUp:
		d.move(0, -1)
	case fyne.KeyLeft:
		d.move(-1, 0)
	case fyne.KeyRight:
		d.move(1, 0)
	case fyne.KeyReturn, fyne.KeyEnter:
		d.enter()
	case fyne.KeyEscape:
		if d.focused != "" {
			d.unfocus()
		} else {
			d.sel("")
		}
	}
}

func (d *dashboard) typedRune(r rune) {
	switch r {
	case 'j':
		d.move(0, 1)
	case 'k':
		d.move(0, -1)
	case 'h':
		d.move(-1, 0)
	case 'l':
		d.move(1, 0)
	case 'r':
		if t, ok := d.selectedTask(); ok && t.State == supervisor.TaskBlocked {
			d.u.showRequeue(t)
		}
	case 'd':
		if t, ok := d.selectedTask(); ok && d.works[t.ID].work != nil {
			d.u.showDiff(t, d.works[t.ID].work)
		}
	}
}

// move shifts the selection dx columns (skipping empty ones) and dy cards
// within its column; with nothing selected, it selects the first card.
func (d *dashboard) move(dx, dy int) {
	var cols []supervisor.TaskState
	for _, st := range Columns {
		if len(d.order[st]) > 0 {
			cols = append(cols, st)
		}
	}
	if len(cols) == 0 {
		return
	}
	ci, ri := -1, 0
	for i, st := range cols {
		if j := slices.Index(d.order[st], d.selected); j >= 0 {
			ci, ri = i, j
		}
	}
	if ci < 0 {
		d.sel(d.order[cols[0]][0])
		return
	}
	ci = min(max(ci+dx, 0), len(cols)-1)
	ids := d.order[cols[ci]]
	ri = min(max(ri+dy, 0), len(ids)-1)
	d.sel(ids[ri])
}

func (d *dashboard) sel(id string) {
	if id == d.selected {
		return
	}
	d.selected = id
	d.updateColumns(d.u.snap)
}

func (d *dashboard) selectedTask() (supervisor.Task, bool) {
	i := slices.IndexFunc(d.u.snap.Tasks, func(t supervisor.Task) bool { return t.ID == d.selected })
	if d.selected == "" || i < 0 {
		return supervisor.Task{}, false
	}
	return d.u.snap.Tasks[i], true
}

// enter opens the selected card's console while its session runs, and its
// last screen in the pane once it has ended: nothing attaches to an ended
// session.
func (d *dashboard) enter() {
	t, ok := d.selectedTask()
	if !ok {
		return
	}
	if si, live := SessionFor(d.u.snap, t.ID); live {
		d.openConsole(si.ID)
		return
	}
	d.focus(t.ID)
}
