package workspace

import (
	"runtime"
	"sync"
)

// Map runs fn over items on all cores and returns the results in the
// items' order, so output stays deterministic. progress, when not nil, is
// called after each item finishes with the count done so far.
func Map[T, R any](items []T, fn func(T) R, progress func(done int)) []R {
	out := make([]R, len(items))
	workers := min(runtime.GOMAXPROCS(0), len(items))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = fn(items[i])
				if progress != nil {
					mu.Lock()
					done++
					progress(done)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
