package matfile_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/matfile"
)

func ExampleReadFile() {
	// tiny_le.mat holds A = [1 2 3; 4 5 6] (compressed), v = [7 8 9]
	// (a double array stored as uint8), a logical 2×2 mask and a cell array.
	f, err := matfile.ReadFile("testdata/tiny_le.mat")
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range f.Vars() {
		fmt.Println(v.Name, v.Class, v.Dims)
	}
	a, err := f.Matrix("A")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("A =\n%v\n", mat.Formatted(a))
	_, err = f.Matrix("c")
	fmt.Println(err)
	// Output:
	// A double [2 3]
	// v double [1 3]
	// mask uint8 [2 2]
	// c cell [1 1]
	// A =
	// ⎡1  2  3⎤
	// ⎣4  5  6⎦
	// testdata/tiny_le.mat: variable "c" (element at byte 313): unsupported variable: class cell; only real numeric and logical arrays are converted
}
