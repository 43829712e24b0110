// The kstatus oracle: sigs.k8s.io/cli-utils' own status.Compute over files of Kubernetes objects, read
// as kubectl reads them (YAML documents or JSON values, each converted to JSON, numbers to int64 or
// float64; a mapping whose items is a list, and a top-level list, give their items). For each object
// it prints one JSON line: file, number (from 1, in reading order), status, reason, message, and the
// error when Compute returned one (status Unknown, as kstatus' polling layer reports it) or panicked.
// dwd's differential test (KstatusDifferentialTest) compares dwd's answers with these lines.
//
//	kstatus-oracle FILE...
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

type answer struct {
	File    string `json:"file"`
	Number  int    `json:"number"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message"`
	Error   string `json:"error,omitempty"`
	Panic   bool   `json:"panic,omitempty"`
}

func main() {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	for _, file := range os.Args[1:] {
		if err := readFile(file, encoder); err != nil {
			out.Flush()
			fmt.Fprintf(os.Stderr, "kstatus-oracle: %s: %v\n", file, err)
			os.Exit(1)
		}
	}
}

func readFile(file string, encoder *json.Encoder) error {
	input, err := os.Open(file)
	if err != nil {
		return err
	}
	defer input.Close()
	decoder := utilyaml.NewYAMLOrJSONDecoder(input, 4096)
	number := 0
	for {
		var raw json.RawMessage
		if err := decoder.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var document interface{}
		if err := utiljson.Unmarshal(raw, &document); err != nil {
			return err
		}
		for _, object := range objects(document) {
			number++
			if err := encoder.Encode(compute(file, number, object)); err != nil {
				return err
			}
		}
	}
}

// objects are the document's items when it is a list, else the document itself; null values are left out.
func objects(document interface{}) []interface{} {
	var values []interface{}
	switch value := document.(type) {
	case nil:
		return nil
	case []interface{}:
		values = value
	case map[string]interface{}:
		if items, ok := value["items"].([]interface{}); ok {
			values = items
		} else {
			values = []interface{}{value}
		}
	default:
		values = []interface{}{value}
	}
	var kept []interface{}
	for _, value := range values {
		if value != nil {
			kept = append(kept, value)
		}
	}
	return kept
}

func compute(file string, number int, object interface{}) (result answer) {
	result = answer{File: file, Number: number}
	content, ok := object.(map[string]interface{})
	if !ok {
		result.Status = string(status.UnknownStatus)
		result.Error = fmt.Sprintf("not an object: %T", object)
		return result
	}
	defer func() {
		if recovered := recover(); recovered != nil {
			result.Status = string(status.UnknownStatus)
			result.Error = fmt.Sprint(recovered)
			result.Panic = true
		}
	}()
	computed, err := status.Compute(&unstructured.Unstructured{Object: content})
	if err != nil {
		result.Status = string(status.UnknownStatus)
		result.Error = err.Error()
		return result
	}
	result.Status = string(computed.Status)
	result.Message = computed.Message
	for _, condition := range computed.Conditions {
		if condition.Reason != "" {
			result.Reason = condition.Reason
			break
		}
	}
	return result
}
