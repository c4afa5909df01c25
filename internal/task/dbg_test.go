package task

import (
	"fmt"
	"os"
	"testing"
)

func TestDebugShow(t *testing.T) {
	id := os.Getenv("TASK")
	if id == "" {
		t.Skip()
	}
	tk, _ := Get(id)
	res, err := run(tk, "solution.yaml", tk.Solution)
	fmt.Println("SOLUTION", err)
	if res != nil {
		fmt.Print(describe(res))
	}
	for i, w := range tk.Wrong {
		res, err := run(tk, "w.yaml", w.Manifest)
		fmt.Println("WRONG", i+1, w.Fails, err)
		if res != nil {
			fmt.Print(describe(res))
		}
	}
}
