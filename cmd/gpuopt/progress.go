package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// progressDelay is how long a run goes quietly before it shows progress.
const progressDelay = time.Second

// progressLine shows "checked N/M files" on stderr while a run on a
// terminal takes longer than progressDelay, and erases it when done. A nil
// *progressLine shows nothing.
type progressLine struct {
	out   io.Writer
	delay time.Duration
	total int
	verb  string
	done  atomic.Int64
	quit  chan struct{}
	wg    sync.WaitGroup
}

func startProgress(total int, verb string, disabled bool) *progressLine {
	if disabled || total == 0 || !isTerminal(os.Stderr) {
		return nil
	}
	return newProgress(os.Stderr, progressDelay, total, verb)
}

func newProgress(out io.Writer, delay time.Duration, total int, verb string) *progressLine {
	p := &progressLine{out: out, delay: delay, total: total, verb: verb, quit: make(chan struct{})}
	p.wg.Add(1)
	go p.draw()
	return p
}

func (p *progressLine) draw() {
	defer p.wg.Done()
	select {
	case <-p.quit:
		return
	case <-time.After(p.delay):
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		fmt.Fprintf(p.out, "\r\x1b[K%s %d/%d files", p.verb, p.done.Load(), p.total)
		select {
		case <-p.quit:
			fmt.Fprint(p.out, "\r\x1b[K")
			return
		case <-tick.C:
		}
	}
}

// step is the callback workspace.Map calls after each file (nil for a nil p).
func (p *progressLine) step() func(done int) {
	if p == nil {
		return nil
	}
	return func(done int) { p.done.Store(int64(done)) }
}

// stop ends the line; the terminal is clean when it returns.
func (p *progressLine) stop() {
	if p == nil {
		return
	}
	close(p.quit)
	p.wg.Wait()
}
