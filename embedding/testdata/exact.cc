// exact.cc prints the word vectors of a fastText model as fastText's own
// library computes them (FastText::getWordVector), each value with 9
// significant digits, which is enough to give back the float exactly.
// Words are read from standard input, one per line; the output has the
// form of print-word-vectors: "word v1 ... vd". gen.sh builds and runs it
// when a C++ compiler and libfasttext-dev are installed.
#include <fasttext/fasttext.h>

#include <cstdio>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: exact MODEL.bin < words\n");
    return 2;
  }
  fasttext::FastText ft;
  ft.loadModel(std::string(argv[1]));
  fasttext::Vector v(ft.getDimension());
  std::string w;
  while (std::getline(std::cin, w)) {
    ft.getWordVector(v, w);
    std::printf("%s", w.c_str());
    for (int64_t i = 0; i < v.size(); i++) {
      std::printf(" %.9g", v[i]);
    }
    std::printf("\n");
  }
  return 0;
}
